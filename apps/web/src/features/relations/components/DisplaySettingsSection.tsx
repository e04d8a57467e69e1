import { Card, Group, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DigitSystemSetting } from '../../../components/DigitSystemSetting';

/**
 * "Display" on the settings page (issue 9): the digit system every number of the app is shown in
 * (Arabic-Indic ٠١٢ or Western 012; the default follows the language). Kept on this device, like
 * the language and theme (docs/i18n.md).
 */
export function DisplaySettingsSection() {
  const { t } = useTranslation('relations');
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="display-settings">
      <Title order={2} size="h3">
        {t('settings.display.title')}
      </Title>
      <Group justify="space-between" wrap="wrap" gap="sm" mt="sm">
        <div>
          <Text fw={500}>{t('settings.display.digits')}</Text>
          {/* shows "012" as the example of Western digits (e2e/digits.test.ts) */}
          <Text c="dimmed" size="sm" data-latin-digits>
            {t('settings.display.digitsHint')}
          </Text>
        </div>
        <DigitSystemSetting />
      </Group>
    </Card>
  );
}
