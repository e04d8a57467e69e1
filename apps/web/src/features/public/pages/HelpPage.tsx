import { Anchor, Button, Container, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePageMeta } from '../../../lib/pageMeta';
import { LIMITS, RADIUS_OPTIONS_KM, TRIAL_DAYS, VAT_RATE } from '@masar/shared';
import { asLang, formatNumber, formatPercent } from '../../../components/format';

interface Section {
  id: string;
  heading: string;
  paragraphs: string[];
  points?: string[];
}

/**
 * /help (spec §1/§2 help): how Masar works for a Saudi freight business, one section per task
 * (posting a load, bidding, Bayan and WASL, plans and payments, verification), a table of
 * contents and links to the FAQ and the contact form.
 */
export default function HelpPage() {
  const { t, i18n } = useTranslation('public');
  const lang = asLang(i18n.language);
  usePageMeta(t('help.title'), t('help.description'));
  const sections = t('help.sections', {
    returnObjects: true,
    // the numbers of the guide come from the rules they describe, in the reader's digits
    stops: LIMITS.stopsMax,
    lines: LIMITS.cargoLinesMax,
    min: RADIUS_OPTIONS_KM[0],
    max: formatNumber(RADIUS_OPTIONS_KM[RADIUS_OPTIONS_KM.length - 1], lang),
    tons: LIMITS.bayanMinWeightTons,
    vat: formatPercent(VAT_RATE, lang),
    days: TRIAL_DAYS,
    mb: LIMITS.documentMaxBytes / 1024 / 1024,
  }) as Section[];
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>{t('help.title')}</Title>
          <Text c="dimmed" mt="xs">
            {t('help.description')}
          </Text>
        </div>
        <Paper withBorder p="md" radius="md" component="nav" aria-label={t('help.contents')}>
          <Text fw={600} mb="xs">
            {t('help.contents')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={4}>
            {sections.map((s) => (
              <Anchor key={s.id} href={`#${s.id}`} size="sm">
                {s.heading}
              </Anchor>
            ))}
          </SimpleGrid>
        </Paper>
        {sections.map((s) => (
          <section key={s.id} id={s.id} style={{ scrollMarginTop: 80 }} data-testid={`help-${s.id}`}>
            <Title order={2} fz="h3" mb="xs">
              {s.heading}
            </Title>
            {s.paragraphs.map((p) => (
              <Text key={p} mb="xs">
                {p}
              </Text>
            ))}
            {s.points && (
              <List spacing={4} type="ordered">
                {s.points.map((p) => (
                  <List.Item key={p}>{p}</List.Item>
                ))}
              </List>
            )}
          </section>
        ))}
        <Paper withBorder p="md" radius="md">
          <Stack gap="xs">
            <Text fw={600}>{t('help.stillStuck')}</Text>
            <Group>
              <Button component={Link} to="/faq" variant="light">
                {t('help.toFaq')}
              </Button>
              <Button component={Link} to="/contact">
                {t('help.toContact')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      </Stack>
    </Container>
  );
}
