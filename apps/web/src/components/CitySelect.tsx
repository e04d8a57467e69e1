import { useEffect, useMemo, useState } from 'react';
import { Group, Loader, Select, Text, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { City } from '@masar/shared';
import { masar, unwrap } from '../lib/api';
import { asLang, cityName } from './format';
import { useCitiesByIds, useRegions } from './reference';

export interface CitySelectProps extends Omit<SelectProps, 'value' | 'onChange' | 'data' | 'searchValue' | 'onSearchChange'> {
  /** Selected city id (null when none). */
  value: number | null | undefined;
  onChange: (cityId: number | null, city: City | null) => void;
}

/**
 * Async city autocomplete (GET /cities?search=, debounced 250 ms). Shows the city in the
 * user's language with its region; the value is the city id. A preset value (edit form, deep
 * link) is labelled through GET /cities?ids=.
 */
export function CitySelect({ value, onChange, ...rest }: CitySelectProps) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [picked, setPicked] = useState<City | null>(null);
  const regions = useRegions();
  const preset = useCitiesByIds(value && picked?.id !== value ? [value] : []);
  const selected = picked?.id === value ? picked : (preset.data?.find((c) => c.id === value) ?? null);
  const selectedLabel = cityName(selected, lang);

  // Typing the selected label back into the box is not a search.
  const term = debounced && debounced !== selectedLabel ? debounced : '';
  const results = useQuery({
    queryKey: ['ref', 'citySearch', term],
    queryFn: ({ signal }) => unwrap(masar.GET('/api/v1/cities', { params: { query: { search: term, limit: 20 } }, signal })).then((d) => d.items),
    enabled: term.length >= 1,
    staleTime: 5 * 60_000,
  });

  // Keep the input text in step with the selected city (and its language).
  useEffect(() => {
    setSearch(selectedLabel);
  }, [selectedLabel]);

  const regionName = (id: number) => {
    const r = regions.data?.find((x) => x.id === id);
    return r ? (lang === 'ar' ? r.nameAr : r.nameEn) : '';
  };
  const cities = useMemo(() => {
    const list = [...(results.data ?? [])];
    if (selected && !list.some((c) => c.id === selected.id)) list.unshift(selected);
    return list;
  }, [results.data, selected]);
  const data = cities.map((c) => ({ value: String(c.id), label: cityName(c, lang) }));

  return (
    <Select
      searchable
      clearable
      data={data}
      value={value ? String(value) : null}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={term && !results.isFetching ? t('city.noResults') : undefined}
      placeholder={t('city.placeholder')}
      rightSection={results.isFetching ? <Loader size={14} /> : undefined}
      renderOption={({ option }) => {
        const c = cities.find((x) => String(x.id) === option.value);
        return (
          <Group gap={6} wrap="nowrap" justify="space-between" w="100%">
            <Text size="sm">{option.label}</Text>
            {c && (
              <Text size="xs" c="dimmed">
                {regionName(c.regionId)}
              </Text>
            )}
          </Group>
        );
      }}
      onChange={(v) => {
        const c = cities.find((x) => String(x.id) === v) ?? null;
        setPicked(c);
        onChange(c ? c.id : null, c);
      }}
      {...rest}
    />
  );
}
