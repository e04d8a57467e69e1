import { useState } from 'react';
import { Badge, Box, Button, Checkbox, Collapse, Group, Paper, Select, SimpleGrid, Text } from '@mantine/core';
import { useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import { IconAdjustmentsHorizontal, IconChevronUp, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LOAD_TYPES, RADIUS_OPTIONS_KM, SEARCH_PICKUP_RADIUS_KM } from '@masar/shared';
import { CitySelect } from '../../../components/CitySelect';
import { RadiusSelect } from '../../../components/RadiusSelect';
import { asLang } from '../../../components/format';
import { useEquipmentTypes } from '../../../components/reference';
import type { SearchFilters } from '../utils/searchParams';
import { useDatesLocale } from '../../../components/useDatesLocale';

/** Spec §2: phones at or below 768 px. */
const PHONE = '(max-width: 768px)';

/** The filter bar of the load search: pickup city + radius, drop city + radius, equipment, FTL/LTL, pickup dates. */
export function SearchFilterBar({ value, onSearch }: { value: SearchFilters; onSearch: (f: SearchFilters) => void }) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const datesLocale = useDatesLocale(lang);
  const [draft, setDraft] = useState(value);
  const eq = useEquipmentTypes();
  const set = (patch: Partial<SearchFilters>) => setDraft((d) => ({ ...d, ...patch }));
  const range: [string | null, string | null] = [draft.pickupFrom, draft.pickupTo];
  // Phones (spec §2: mobile at or below 768 px) get the filters folded away behind one button.
  const mobile = useMediaQuery(PHONE, window.matchMedia?.(PHONE).matches ?? false) ?? false;
  const [open, setOpen] = useState(false);
  // Wider screens may fold the bar too (issue 23: more rows on screen); remembered on this device.
  const [folded, setFolded] = useLocalStorage({ key: 'masar.searchFiltersFolded', defaultValue: false, getInitialValueInEffect: false });
  const { t: ts } = useTranslation('shipments');
  const active = [value.pickupCityId, value.dropCityId, value.equipmentType, value.loadType, value.pickupFrom, value.bookNow].filter(Boolean).length;

  return (
    <Paper withBorder p={{ base: 'xs', sm: 'sm' }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSearch({ ...draft, page: 1, after: null });
        }}
      >
        {/* prerendered at desktop width (src/prerender.tsx): on a phone the fold is set by CSS until the script runs */}
        <Box hiddenFrom={mobile ? undefined : 'sm'}>
          <Button
            variant="subtle"
            fullWidth
            justify="space-between"
            leftSection={<IconAdjustmentsHorizontal size={16} />}
            rightSection={active > 0 ? <Badge size="sm">{active}</Badge> : undefined}
            onClick={() => setOpen((o) => !o)}
            mb={open ? 'sm' : 0}
            data-testid="filters-toggle"
          >
            {t('search.filters')}
          </Button>
        </Box>
        {!mobile && (
          <Box visibleFrom="sm">
            <Group justify="space-between" mb={folded ? 0 : 'xs'} wrap="nowrap">
              <Group gap="xs" wrap="nowrap">
                <IconAdjustmentsHorizontal size={16} aria-hidden />
                <Text size="sm" fw={600}>
                  {t('search.filters')}
                </Text>
                {folded && active > 0 && <Badge size="sm">{active}</Badge>}
              </Group>
              <Button
                variant="subtle"
                size="compact-sm"
                rightSection={<IconChevronUp size={14} style={{ transform: folded ? 'rotate(180deg)' : undefined }} aria-hidden />}
                onClick={() => setFolded((f) => !f)}
                aria-expanded={!folded}
                data-testid="filters-fold"
              >
                {folded ? ts('table.showFilters') : ts('table.hideFilters')}
              </Button>
            </Group>
          </Box>
        )}
        <Box visibleFrom={mobile || open ? undefined : 'sm'}>
          <Collapse expanded={mobile ? open : !folded}>
            <DatesProvider settings={{ locale: datesLocale, firstDayOfWeek: 0, weekendDays: [5, 6] }}>
              <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 5 }} spacing="sm">
                <Group gap={6} wrap="nowrap" align="flex-end">
                  <CitySelect
                    label={t('search.pickupCity')}
                    value={draft.pickupCityId}
                    onChange={(id) => set({ pickupCityId: id })}
                    style={{ flex: 1 }}
                    data-testid="search-pickup-city"
                  />
                  <RadiusSelect
                    options={SEARCH_PICKUP_RADIUS_KM}
                    value={draft.radius}
                    onChange={(radius) => set({ radius })}
                    w={110}
                    data-testid="search-radius"
                  />
                </Group>
                <Group gap={6} wrap="nowrap" align="flex-end">
                  <CitySelect
                    label={t('search.dropCity')}
                    value={draft.dropCityId}
                    onChange={(id) => set({ dropCityId: id })}
                    style={{ flex: 1 }}
                    data-testid="search-drop-city"
                  />
                  <RadiusSelect
                    options={RADIUS_OPTIONS_KM}
                    value={draft.dropRadius}
                    onChange={(dropRadius) => set({ dropRadius })}
                    w={110}
                    data-testid="search-drop-radius"
                  />
                </Group>
                <Group gap={6} wrap="nowrap" align="flex-end">
                  <Select
                    label={t('field.equipment')}
                    placeholder={t('search.any')}
                    data={(eq.data ?? []).map((e) => ({ value: e.code, label: lang === 'ar' ? e.nameAr : e.nameEn }))}
                    value={draft.equipmentType}
                    onChange={(v) => set({ equipmentType: v })}
                    clearable
                    searchable
                    style={{ flex: 1 }}
                    data-testid="search-equipment"
                  />
                  <Select
                    label={t('field.loadType')}
                    placeholder={t('search.any')}
                    data={LOAD_TYPES.map((lt) => ({ value: lt, label: lt }))}
                    value={draft.loadType}
                    onChange={(v) => set({ loadType: v === 'FTL' || v === 'LTL' ? v : null })}
                    clearable
                    w={100}
                    data-testid="search-load-type"
                  />
                </Group>
                <DatePickerInput
                  type="range"
                  label={t('search.pickupDates')}
                  placeholder={t('search.anyDate')}
                  value={range}
                  onChange={([from, to]) => set({ pickupFrom: from ? from.slice(0, 10) : null, pickupTo: to ? to.slice(0, 10) : null })}
                  clearable
                  allowSingleDateInRange
                  valueFormat="DD/MM/YYYY"
                  data-testid="search-dates"
                />
                {/* a cell of their own, always the row's last (the search button at the end of the bar): beside the
                    dates they squeezed the date field and cut the button's label at 1280 px */}
                <Group gap="sm" wrap="nowrap" align="flex-end" justify="flex-end" style={{ gridColumn: '-2 / -1' }}>
                  <Checkbox
                    label={t('bookNow.filter')}
                    checked={draft.bookNow}
                    onChange={(e) => set({ bookNow: e.currentTarget.checked })}
                    mb={8}
                    data-testid="search-book-now"
                  />
                  <Button type="submit" leftSection={<IconSearch size={16} />} style={{ flexShrink: 0 }} data-testid="search-submit">
                    {t('search.submit')}
                  </Button>
                </Group>
              </SimpleGrid>
            </DatesProvider>
          </Collapse>
        </Box>
      </form>
    </Paper>
  );
}
