import { Select, type SelectProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { asLang, formatNumber } from './format';

export interface RadiusSelectProps extends Omit<SelectProps, 'value' | 'onChange' | 'data'> {
  /** The radii offered, in km (e.g. `RADIUS_OPTIONS_KM` or `SEARCH_PICKUP_RADIUS_KM` from @masar/shared). */
  options: readonly number[];
  /** The chosen radius in km. */
  value: number;
  onChange: (km: number) => void;
}

/**
 * The search radius around a city (spec §2 home search, §9 load search): "50 km" … in the reader's
 * language and digit system, labelled "Radius". Always has a value (no deselect).
 */
export function RadiusSelect({ options, value, onChange, ...rest }: RadiusSelectProps) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  return (
    <Select
      label={t('search.radius')}
      data={options.map((km) => ({ value: String(km), label: t('unit.km', { value: formatNumber(km, lang) }) }))}
      value={String(value)}
      onChange={(v) => onChange(Number(v) || value)}
      allowDeselect={false}
      {...rest}
    />
  );
}
