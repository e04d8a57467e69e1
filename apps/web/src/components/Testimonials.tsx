import { Avatar, Badge, Blockquote, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import data from '../content/testimonials.json';

export type Audience = 'shipper' | 'tms' | 'carrier';
type Localized = { en: string; ar: string };
interface Testimonial {
  audience: Audience;
  quote: Localized;
  name: Localized;
  role: Localized;
  company: Localized;
}

/**
 * The testimonials, from ONE data file an operator edits (src/content/testimonials.json; README "Testimonials"):
 * each quote in English and Arabic with its audience (shippers, TMS users, carriers). The file
 * ships with samples written for the demo, and `sample: true` puts a visible "Sample
 * testimonials" label and note on the block; an operator who replaces them with real customers'
 * words (with their consent) sets it to false.
 */
export const TESTIMONIALS = data as { sample: boolean; items: Testimonial[] };
const AUDIENCES: Audience[] = ['shipper', 'tms', 'carrier'];

/**
 * Customer testimonials (issue 8, spec §1): all of them on /about-us; on home (issue 23, loaded
 * lazily as it scrolls into view) the first of each audience, under its audience's name.
 */
export function Testimonials({ variant = 'about' }: { variant?: 'about' | 'home' }) {
  const { t, i18n } = useTranslation('public');
  const lang = i18n.language === 'ar' ? 'ar' : 'en';
  const items = variant === 'home' ? AUDIENCES.flatMap((a) => TESTIMONIALS.items.find((i) => i.audience === a) ?? []) : TESTIMONIALS.items;
  return (
    <section aria-labelledby="testimonials-title" data-testid="testimonials">
      <Group gap="sm" align="center" mb={4}>
        <Title order={2} fz="h3" id="testimonials-title">
          {variant === 'home' ? t('testimonials.homeTitle') : t('testimonials.title')}
        </Title>
        {TESTIMONIALS.sample && (
          <Badge variant="outline" color="gray" data-testid="testimonials-sample">
            {t('testimonials.sample')}
          </Badge>
        )}
      </Group>
      {TESTIMONIALS.sample && (
        <Text size="sm" c="dimmed" mb="sm">
          {t('testimonials.illustrative')}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: variant === 'home' ? 3 : 2 }} spacing="md">
        {items.map((i) => (
          <Paper key={i.company.en} withBorder radius="md" p="md" data-testid={`testimonial-${i.audience}`}>
            <Stack gap="sm">
              {variant === 'home' && (
                <Text size="xs" fw={700} tt="uppercase" c="dimmed">
                  {t(`testimonials.audience.${i.audience}`)}
                </Text>
              )}
              <Blockquote color="masar" p="sm" style={{ fontSize: 'var(--mantine-font-size-sm)' }}>
                {i.quote[lang]}
              </Blockquote>
              <Group gap="sm" wrap="nowrap">
                <Avatar color="masar" radius="xl" aria-hidden>
                  {i.name[lang].charAt(0)}
                </Avatar>
                <div>
                  <Text fw={600} size="sm">
                    {i.name[lang]}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {i.role[lang]} · {i.company[lang]}
                  </Text>
                </div>
              </Group>
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
    </section>
  );
}

export default Testimonials;
