import { Container, List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/pageMeta';
import { Testimonials } from '../../../components/Testimonials';
import { asLang, formatDate } from '../../../components/format';

/**
 * A page of text from the `public` namespace: about us, terms and conditions, privacy policy.
 * `page` names its keys: `<page>.title`, `<page>.description`, `<page>.sections[]` of
 * `{ heading, paragraphs[], points?[] }`. About us also shows the customer testimonials.
 */
/** When the text pages were last revised (noon in Riyadh). */
const UPDATED = '2026-11-23T12:00:00+03:00';

export default function InfoPage({ page }: { page: 'about' | 'terms' | 'privacy' }) {
  const { t, i18n } = useTranslation('public');
  usePageMeta(t(`${page}.title`), t(`${page}.description`));
  const sections = t(`${page}.sections`, { returnObjects: true }) as { heading: string; paragraphs: string[]; points?: string[] }[];
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>{t(`${page}.title`)}</Title>
          <Text c="dimmed" mt="xs">
            {t(`${page}.description`)}
          </Text>
        </div>
        {sections.map((s) => (
          <section key={s.heading}>
            <Title order={2} fz="h3" mb="xs">
              {s.heading}
            </Title>
            {s.paragraphs.map((p) => (
              <Text key={p} mb="xs">
                {p}
              </Text>
            ))}
            {s.points && (
              <List spacing={4}>
                {s.points.map((p) => (
                  <List.Item key={p}>{p}</List.Item>
                ))}
              </List>
            )}
          </section>
        ))}
        {page === 'about' && <Testimonials />}
        <Text fz="sm" c="dimmed">
          {t('updated', { date: formatDate(UPDATED, asLang(i18n.language), false) })}
        </Text>
      </Stack>
    </Container>
  );
}
