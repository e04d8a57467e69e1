import { Container, Stack, Title } from '@mantine/core';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { ContactSettingsSection } from '../components/ContactSettingsSection';
import { DisplaySettingsSection } from '../components/DisplaySettingsSection';
import { Slot } from '../../../components/slots';

/** The notification preferences, lent by the notifications feature (slot). */
const NotificationPreferences = () => <Slot name="NotificationPreferences" />;

/**
 * The sections of the settings page, top to bottom. Each is a self-contained component (its own
 * data and strings); a new one is one more entry here.
 */
const SETTINGS_SECTIONS: ComponentType[] = [ContactSettingsSection, DisplaySettingsSection, NotificationPreferences];

/** /shippers|carriers|brokers/setting (spec §2 "Account" settings). */
export default function SettingsPage() {
  const { t } = useTranslation('relations');
  return (
    <Container size="md" py="xl">
      <Title order={1} fz={{ base: 26, sm: 32 }} mb="lg">
        {t('settings.title')}
      </Title>
      <Stack gap="lg">
        {SETTINGS_SECTIONS.map((Section, i) => (
          <Section key={i} />
        ))}
      </Stack>
    </Container>
  );
}
