import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { digitSystem, setDigitSystem } from '../lib/digits';

/**
 * "Digits: ٠١٢ / 012" — the reader's digit system (lib/digits.ts), persisted in local storage;
 * every number on the page follows it at once. Placed beside the language and theme switches
 * (footer, mobile menu) and reusable on a settings page.
 */
export function DigitSystemSetting() {
  const { t, i18n } = useTranslation();
  return (
    <SegmentedControl
      // "012" names the Western digit system: it is shown in Western digits whatever the setting (e2e/digits.test.ts)
      data-latin-digits
      size="xs"
      aria-label={t('common:prefs.digits')}
      value={digitSystem(i18n.language)}
      onChange={(v) => setDigitSystem(v === 'arab' ? 'arab' : 'latn')}
      data={[
        { value: 'arab', label: '٠١٢' },
        { value: 'latn', label: '012' },
      ]}
    />
  );
}
