import { Button, Card, Group, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { CONTACT_CHANNELS, contactInfoInput, type ContactInfo } from '@masar/shared';
import { notifySuccess, showApiError, zodValidate } from '../../../lib/form';
import { useSaveContactInfo } from '../api/profile';

type Values = Record<(typeof CONTACT_CHANNELS)[number], { value: string; share: boolean }>;
const toValues = (c: ContactInfo): Values => Object.fromEntries(CONTACT_CHANNELS.map((k) => [k, { value: c[k].value ?? '', share: c[k].share }])) as Values;

/** Contact info to share (issue 8; spec §2): which of phone, e-mail, WhatsApp, office phone the other party of a booking sees. */
export function ContactInfoCard({ info }: { info: ContactInfo }) {
  const { t } = useTranslation('profile');
  const save = useSaveContactInfo();
  const form = useForm<Values>({ mode: 'controlled', initialValues: toValues(info), validate: zodValidate(contactInfoInput) });
  const submit = form.onSubmit(async (values) => {
    try {
      form.setValues(toValues(await save.mutateAsync(contactInfoInput.parse(values))));
      notifySuccess(t('contact.saved'));
    } catch (e) {
      showApiError(e, form);
    }
  });
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="contact-info">
      <Title order={2} size="h3">
        {t('contact.title')}
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        {t('contact.hint')}
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {CONTACT_CHANNELS.map((k) => (
            <Group key={k} align="flex-end" wrap="nowrap">
              <TextInput
                style={{ flex: 1 }}
                label={t(`contact.${k}`)}
                dir="ltr"
                type={k === 'email' ? 'email' : 'tel'}
                key={form.key(`${k}.value`)}
                {...form.getInputProps(`${k}.value`)}
              />
              <Switch
                label={t('contact.share')}
                aria-label={t('contact.shareNamed', { field: t(`contact.${k}`) })}
                key={form.key(`${k}.share`)}
                {...form.getInputProps(`${k}.share`, { type: 'checkbox' })}
                mb={8}
              />
            </Group>
          ))}
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('common:actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
