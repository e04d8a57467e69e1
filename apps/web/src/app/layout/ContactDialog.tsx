import { Anchor, Group, Stack, Text } from '@mantine/core';
import { IconMail, IconPhone } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { SUPPORT } from '@masar/shared';
import { LazyModal } from '../../components/LazyOverlay';

/** Contact Us dialog with the support e-mail and phone (spec §2 banner). */
export function ContactDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <LazyModal opened={opened} onClose={onClose} title={t('contact.title')} centered zIndex={400}>
      <Stack gap="sm">
        <Text fz="sm" c="dimmed">
          {t('contact.text')}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <IconMail size={18} />
          <Anchor href={`mailto:${SUPPORT.email}`} dir="ltr">
            {SUPPORT.email}
          </Anchor>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <IconPhone size={18} />
          <Anchor href={`tel:${SUPPORT.phone}`} dir="ltr">
            {SUPPORT.phone}
          </Anchor>
        </Group>
      </Stack>
    </LazyModal>
  );
}
