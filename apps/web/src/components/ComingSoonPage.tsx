import { Container, Stack, Text, Title } from '@mantine/core';
import { IconTruckDelivery } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Placeholder for menu items whose screens arrive in later issues. titleKey: "ns:key". */
export function ComingSoonPage({ titleKey }: { titleKey?: string }) {
  const { t } = useTranslation(['common', 'menu']);
  return (
    <Container size="sm" py="xl">
      <Stack align="center" gap="sm" py="xl">
        <IconTruckDelivery size={64} stroke={1.2} color="var(--mantine-color-masar-6)" className="masar-mirror-rtl" />
        <Title order={2} ta="center">
          {titleKey ? t(titleKey) : t('comingSoon.title')}
        </Title>
        <Text c="dimmed" ta="center">
          {titleKey ? `${t('comingSoon.title')} — ${t('comingSoon.text')}` : t('comingSoon.text')}
        </Text>
      </Stack>
    </Container>
  );
}
export default ComingSoonPage;
