import { Accordion, Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePageMeta } from '../../../lib/pageMeta';

export const FAQ_KEYS = ['freshness', 'access', 'devices', 'payment', 'cancel'] as const;

/**
 * The subscription FAQ (spec §1: data freshness, access after subscribing, multi-device use,
 * payment methods, cancelling), also published as FAQPage structured data (schema.org) for
 * search engines.
 */
export default function FaqPage() {
  const { t } = useTranslation('public');
  usePageMeta(t('faq.title'), t('faq.description'));
  const items = FAQ_KEYS.map((k) => ({ key: k, q: t(`faq.q.${k}`), a: t(`faq.a.${k}`) }));
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((i) => ({ '@type': 'Question', name: i.q, acceptedAnswer: { '@type': 'Answer', text: i.a } })),
  };
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>{t('faq.title')}</Title>
          <Text c="dimmed" mt="xs">
            {t('faq.description')}
          </Text>
        </div>
        <Accordion variant="separated" radius="md" data-testid="faq">
          {items.map((i) => (
            <Accordion.Item key={i.key} value={i.key}>
              <Accordion.Control>{i.q}</Accordion.Control>
              <Accordion.Panel>{i.a}</Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
        <Text>
          {t('faq.more')}{' '}
          <Anchor component={Link} to="/pricing">
            {t('faq.seePlans')}
          </Anchor>
        </Text>
      </Stack>
      <script type="application/ld+json" data-testid="faq-jsonld" dangerouslySetInnerHTML={{ __html: JSON.stringify(jsonLd).replace(/</g, '\\u003c') }} />
    </Container>
  );
}
