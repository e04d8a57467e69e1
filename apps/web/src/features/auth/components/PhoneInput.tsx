import { TextInput, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Saudi mobile number with a fixed +966 prefix (spec §5: allowed country sa, starts with 5).
 * Always laid out left to right, as phone numbers are written in Arabic too.
 */
export function PhoneInput(props: TextInputProps) {
  const { t } = useTranslation('auth');
  return (
    <TextInput
      label={t('fields.phone')}
      placeholder="5XXXXXXXX"
      type="tel"
      inputMode="tel"
      autoComplete="tel-national"
      dir="ltr"
      leftSection={<span dir="ltr">+966</span>}
      leftSectionWidth={56}
      maxLength={13}
      {...props}
    />
  );
}
