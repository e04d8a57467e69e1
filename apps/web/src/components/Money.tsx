import { Text, type TextProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { asLang, formatDate, formatDateCompact, formatHijri, formatMoney } from './format';

/** An amount in SAR, formatted for the user's language. */
export function Money({ value, decimals, ...rest }: { value: number | null | undefined; decimals?: number } & TextProps) {
  const { i18n } = useTranslation();
  if (value === null || value === undefined) return null;
  return (
    <Text component="span" inherit {...rest}>
      {formatMoney(value, asLang(i18n.language), { decimals })}
    </Text>
  );
}

/**
 * A date (and time) in Riyadh time; in Arabic the Hijri date follows the Gregorian one.
 * `compact` (cards, list rows): day, month and time, with the Hijri day and month (formatDateCompact).
 */
export function DateText({
  value,
  withTime = true,
  compact,
  ...rest
}: { value: string | null | undefined; withTime?: boolean; compact?: boolean } & TextProps) {
  const { i18n } = useTranslation();
  if (!value) return null;
  const lang = asLang(i18n.language);
  if (compact)
    return (
      <Text component="span" inherit {...rest}>
        {formatDateCompact(value, lang)}
      </Text>
    );
  return (
    <Text component="span" inherit {...rest}>
      {formatDate(value, lang, withTime)}
      {lang === 'ar' && (
        // the Hijri twin wraps as one unit: never a lone "هـ)" on a line of its own
        <Text component="span" inherit c="dimmed" ms={6} style={{ whiteSpace: 'nowrap', display: 'inline-block' }}>
          ({formatHijri(value, 'ar')})
        </Text>
      )}
    </Text>
  );
}
