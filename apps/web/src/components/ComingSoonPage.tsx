import { Anchor, Badge, Container, List, Stack, Text, Title } from '@mantine/core';
import { IconTruckDelivery } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

/** What a visitor can open meanwhile (every signed-in screen exists now: only the public section pages are still coming). */
const PUBLIC: [label: string, to: string][] = [
  ['soon:link.signUp', '/signup'],
  ['soon:link.pricing', '/pricing'],
  ['soon:link.home', '/'],
  ['soon:link.faq', '/faq'],
];

/**
 * A public section page that arrives in a later issue (routes.tsx `soon(...)`: /shippers, /carriers,
 * /brokers): its name, what it will offer (namespace 'soon' loaded with the page) and links to the
 * public screens that exist now. titleKey: "ns:key"; its last segment names the page
 * ("common:footer.forCarriers" → forCarriers).
 */
export function ComingSoonPage({ titleKey }: { titleKey?: string }) {
  const { t } = useTranslation(['soon', 'menu']);
  const page = titleKey?.split(/[:.]/).pop() ?? '';
  const description = t(`page.${page}`, { defaultValue: t('fallback') });
  return (
    <Container size="sm" py="xl" data-testid="coming-soon">
      <Stack align="center" gap="sm" py="xl">
        <IconTruckDelivery size={64} stroke={1.2} color="var(--mantine-color-masar-6)" className="masar-mirror-rtl" aria-hidden />
        <Badge variant="light">{t('badge')}</Badge>
        <Title order={1} fz="h2" ta="center">
          {titleKey ? t(titleKey) : t('badge')}
        </Title>
        <Text ta="center" maw={520}>
          {description}
        </Text>
        <Text c="dimmed" size="sm" mt="md">
          {t('meanwhile')}
        </Text>
        <List spacing={6} listStyleType="none" ta="center" data-testid="coming-soon-links">
          {PUBLIC.map(([label, to]) => (
            <List.Item key={to}>
              <Anchor component={Link} to={to} fw={600}>
                {t(label)}
              </Anchor>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Container>
  );
}
export default ComingSoonPage;
