import { SimpleGrid, Text, UnstyledButton } from '@mantine/core';
import { IconFileSpreadsheet, IconPackage } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LazyModal } from '../../components/LazyOverlay';

/** The broker's "Post Shipment" action (spec §2): a modal choosing one shipment or a CSV bulk upload. */
export function PostShipmentModal({ opened, onClose, prefix }: { opened: boolean; onClose: () => void; prefix: string }) {
  const { t } = useTranslation('menu');
  const choices = [
    { to: `${prefix}/post-load`, Icon: IconPackage, title: t('postChoice.single'), text: t('postChoice.singleText') },
    { to: `${prefix}/csv-logs`, Icon: IconFileSpreadsheet, title: t('postChoice.bulk'), text: t('postChoice.bulkText') },
  ];
  return (
    <LazyModal opened={opened} onClose={onClose} title={t('postShipment')} centered size="lg" zIndex={400}>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        {choices.map(({ to, Icon, title, text }) => (
          <UnstyledButton
            key={to}
            component={Link}
            to={to}
            onClick={onClose}
            p="md"
            style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-md)' }}
          >
            <Icon size={28} stroke={1.5} color="var(--mantine-primary-color-filled)" />
            <Text fw={700} mt="xs">
              {title}
            </Text>
            <Text fz="sm" c="dimmed">
              {text}
            </Text>
          </UnstyledButton>
        ))}
      </SimpleGrid>
    </LazyModal>
  );
}
