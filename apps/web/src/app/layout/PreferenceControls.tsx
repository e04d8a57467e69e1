import { ActionIcon, Group, SegmentedControl, Tooltip } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DigitSystemSetting } from '../../components/DigitSystemSetting';
import { useLanguage, useTheme } from '../../lib/preferences';

/** Language switch (en/ar, flips direction), digit system (٠١٢/012) and theme switch (light/dark), all persisted. */
export function PreferenceControls() {
  const { t } = useTranslation();
  const { language, setLanguage } = useLanguage();
  const { scheme, toggle } = useTheme();
  const themeLabel = scheme === 'dark' ? t('prefs.light') : t('prefs.dark');
  return (
    <Group gap="sm">
      <SegmentedControl
        size="xs"
        aria-label={t('prefs.language')}
        value={language}
        onChange={(v) => setLanguage(v === 'ar' ? 'ar' : 'en')}
        data={[
          { value: 'en', label: 'English' },
          { value: 'ar', label: 'العربية' },
        ]}
      />
      <DigitSystemSetting />
      <Tooltip label={themeLabel}>
        <ActionIcon variant="default" size="lg" onClick={toggle} aria-label={themeLabel}>
          {scheme === 'dark' ? <IconSun size={18} /> : <IconMoon size={18} />}
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
