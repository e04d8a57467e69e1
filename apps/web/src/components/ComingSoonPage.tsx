import { Container, Stack, Text, Title } from '@mantine/core';
import { IconTruckDelivery } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Placeholder for menu items whose screens arrive in later issues. */
export function ComingSoonPage({ titleKey }: { titleKey?: string }) {
  const { t } = useTranslation();
  return (
    <Container size="sm" py="xl">
      <Stack align="center" gap="sm">
        <IconTruckDelivery size={64} stroke={1.2} color="var(--mantine-color-masar-6)" />
        <Title order={2}>{titleKey ? t(titleKey) : t('comingSoon.title')}</Title>
        <Text c="dimmed">{t('comingSoon.text')}</Text>
      </Stack>
    </Container>
  );
}
export default ComingSoonPage;
