import { Avatar, Blockquote, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface Testimonial {
  quote: string;
  name: string;
  role: string;
  company: string;
}

/**
 * Customer testimonials (issue 8, spec §1) on /about-us. The companies and people are
 * illustrative, and the block says so: no real customer is quoted.
 */
export function Testimonials() {
  const { t } = useTranslation('public');
  const items = t('testimonials.items', { returnObjects: true }) as Testimonial[];
  return (
    <section aria-labelledby="testimonials-title" data-testid="testimonials">
      <Title order={2} fz="h3" id="testimonials-title">
        {t('testimonials.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('testimonials.illustrative')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {items.map((i) => (
          <Paper key={i.company} withBorder radius="md" p="md">
            <Stack gap="sm">
              <Blockquote color="masar" p="sm" style={{ fontSize: 'var(--mantine-font-size-sm)' }}>
                {i.quote}
              </Blockquote>
              <Group gap="sm" wrap="nowrap">
                <Avatar color="masar" radius="xl" aria-hidden>
                  {i.name.charAt(0)}
                </Avatar>
                <div>
                  <Text fw={600} size="sm">
                    {i.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {i.role} · {i.company}
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
