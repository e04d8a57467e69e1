import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { Anchor, Button, Container, Paper, Select, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { CONTACT_TOPICS, contactBody, type ContactTopic } from '@masar/shared';
import { masar, unwrap, idempotent, type BodyOf } from '../../../lib/api';
import { showApiError, zodValidate } from '../../../lib/form';
import { usePageMeta } from '../../../lib/pageMeta';
import { asLang, formatClock } from '../../../components/format';

const newKey = () => (globalThis.crypto?.randomUUID ? globalThis.crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

interface Values {
  name: string;
  email: string;
  phone: string;
  topic: ContactTopic | '';
  message: string;
}

/**
 * /contact (spec §1 "Contact us"): name, e-mail, optional Saudi mobile, topic and message,
 * validated by the shared `contactBody` schema, sent to POST /contact with an Idempotency-Key
 * (a double click or a retry sends once), then /thank-you.
 */
export default function ContactPage() {
  const { t, i18n } = useTranslation('public');
  const navigate = useNavigate();
  usePageMeta(t('contact.title'), t('contact.description'));
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { name: '', email: '', phone: '', topic: '', message: '' },
    validate: zodValidate(contactBody),
  });
  // one key per message: changed after a success, kept across retries of the same one
  const key = useRef(newKey());
  const send = useMutation({
    mutationFn: ({ body, key }: { body: BodyOf<'/api/v1/contact', 'post'>; key: string }) =>
      unwrap(masar.POST('/api/v1/contact', { body, headers: idempotent(key) })),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      await send.mutateAsync({ body: contactBody.parse({ ...values, phone: values.phone.trim() || undefined }), key: key.current });
      key.current = newKey();
      void navigate('/thank-you');
    } catch (err) {
      showApiError(err, form);
    }
  });

  return (
    <Container size="lg" py="xl">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
        <Stack gap="md">
          <Title order={1}>{t('contact.title')}</Title>
          <Text>{t('contact.intro')}</Text>
          <Paper withBorder p="md" radius="md">
            <Stack gap={6}>
              <Text fw={600}>{t('contact.hoursTitle')}</Text>
              <Text size="sm">{t('contact.hours', { from: formatClock(8, 0, asLang(i18n.language)), to: formatClock(17, 0, asLang(i18n.language)) })}</Text>
              <Text size="sm">{t('contact.address')}</Text>
            </Stack>
          </Paper>
          <Text size="sm">
            {t('contact.faqFirst')}{' '}
            <Anchor component={Link} to="/faq" underline="always">
              {t('contact.faqLink')}
            </Anchor>{' '}
            ·{' '}
            <Anchor component={Link} to="/help" underline="always">
              {t('contact.helpLink')}
            </Anchor>
          </Text>
        </Stack>
        <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
          <form onSubmit={submit} noValidate data-testid="contact-form">
            <Stack gap="sm">
              <TextInput
                label={t('contact.name')}
                autoComplete="name"
                required
                {...form.getInputProps('name')}
                key={form.key('name')}
                data-testid="contact-name"
              />
              <TextInput
                label={t('contact.email')}
                type="email"
                autoComplete="email"
                dir="ltr"
                required
                {...form.getInputProps('email')}
                key={form.key('email')}
                data-testid="contact-email"
              />
              <TextInput
                label={t('contact.phone')}
                description={t('contact.phoneHint')}
                type="tel"
                autoComplete="tel"
                dir="ltr"
                {...form.getInputProps('phone')}
                key={form.key('phone')}
                data-testid="contact-phone"
              />
              <Select
                label={t('contact.topic')}
                placeholder={t('contact.topicPlaceholder')}
                required
                data={CONTACT_TOPICS.map((v) => ({ value: v, label: t(`contact.topics.${v}`) }))}
                {...form.getInputProps('topic')}
                key={form.key('topic')}
                data-testid="contact-topic"
              />
              <Textarea
                label={t('contact.message')}
                required
                autosize
                minRows={5}
                maxRows={12}
                maxLength={2000}
                {...form.getInputProps('message')}
                key={form.key('message')}
                data-testid="contact-message"
              />
              <Text size="xs" c="dimmed">
                {t('contact.privacy')}
              </Text>
              <Button type="submit" loading={send.isPending} data-testid="contact-submit">
                {t('contact.send')}
              </Button>
            </Stack>
          </form>
        </Paper>
      </SimpleGrid>
    </Container>
  );
}
