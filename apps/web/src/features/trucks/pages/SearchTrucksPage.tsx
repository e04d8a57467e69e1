import { lazy, Suspense, useState } from 'react';
import { Button, Center, Container, Drawer, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import { IconSearch } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SEARCH_PICKUP_RADIUS_KM, TRUCK_SORTS, type Truck } from '@masar/shared';
import { CitySelect } from '../../../components/CitySelect';
import { NumberInput } from '../../../components/NumberInput';
import { RadiusSelect } from '../../../components/RadiusSelect';
import { asLang, formatCount } from '../../../components/format';
import { Slot } from '../../../components/slots';
import { useCitiesByIds, useEquipmentTypes } from '../../../components/reference';
import { useDatesLocale } from '../../../components/useDatesLocale';
import { useSearchTrucks, useTruckBoardCount, type TruckSearchQuery } from '../api/trucks';
import { TruckCard } from '../components/TruckCard';
import { TrucksTable } from '../components/TrucksTable';
import {
  parseTruckFilters,
  searchToTruckFilters,
  truckFiltersToParams,
  truckFiltersToQuery,
  truckFiltersToSearch,
  type TruckFilters,
} from '../utils/searchParams';
import { Loading } from '../../../components/Loading';

// Leaflet loads only when the map view opens.
const TrucksMap = lazy(() => import('../components/TrucksMap').then((m) => ({ default: m.TrucksMap })));

type Filters = TruckFilters;
/** Spec §2: phones at or below 768 px get cards instead of the table. */
const PHONE = '(max-width: 768px)';

/** "Offer this truck a load" (the tenders feature): not on my own trucks. */
const offerLoad = (truck: Truck) =>
  truck.isMine ? undefined : (
    <Group>
      <Slot name="TenderTruckButton" carrierId={truck.ownerId} companyName={truck.company} />
    </Group>
  );

/** The board's count (issue 45): asked once the page has come (`ready`), "Counting trucks…" meanwhile, "1,000+" beyond. */
function TruckBoardTotal({ query, ready }: { query: TruckSearchQuery; ready: boolean }) {
  const { t, i18n } = useTranslation('trucks');
  const count = useTruckBoardCount(query, ready).data;
  return (
    <Text c="dimmed" size="sm" data-testid="truck-search-total">
      {!ready
        ? ' '
        : !count
          ? t('search.counting')
          : count.totalCapped
            ? t('search.resultsCapped', { n: formatCount(count.total, true, asLang(i18n.language)) })
            : t('search.results', { count: count.total })}
    </Text>
  );
}

/** /shippers/search-trucks, /brokers/search-trucks: filters, the results as a list or a map, a truck's details. */
export default function SearchTrucksPage() {
  const { t, i18n } = useTranslation('trucks');
  const lang = asLang(i18n.language);
  const datesLocale = useDatesLocale(lang);
  const eq = useEquipmentTypes();
  // the applied filters live in the URL (shareable; a saved or recent search runs by setting them)
  const [params, setParams] = useSearchParams();
  const urlKey = params.toString();
  const applied = parseTruckFilters(params);
  const [draft, setDraft] = useState<Filters>(applied);
  // the form follows the URL when it changes (a saved search ran, back / forward)
  const [draftOf, setDraftOf] = useState(urlKey);
  if (draftOf !== urlKey) {
    setDraftOf(urlKey);
    setDraft(applied);
  }
  const apply = (f: Filters) => setParams(truckFiltersToParams(f), { replace: false });
  // the results table on wide screens (issue 23), the truck cards on phones, or the map
  const [view, setView] = useState<'list' | 'table' | 'map'>('table');
  const phone = useMediaQuery(PHONE, window.matchMedia?.(PHONE).matches ?? false) ?? false;
  const shown = view === 'table' && phone ? 'list' : view;
  const [open, setOpen] = useState<Truck | null>(null);
  const q = useSearchTrucks(truckFiltersToQuery(applied));
  const origin = useCitiesByIds(applied.originCityId ? [applied.originCityId] : []).data?.[0];
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  const set = (patch: Partial<Filters>) => setDraft((d) => ({ ...d, ...patch }));

  return (
    <Container size="xl" py="md">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Title order={2}>{t('search.title')}</Title>
        <Slot name="SavedSearches" kind="trucks" filters={truckFiltersToSearch(applied)} onRun={(s) => apply(searchToTruckFilters(s))} />
      </Group>
      <Paper withBorder p="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            apply(draft);
          }}
          data-testid="truck-search-form"
        >
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
            <CitySelect label={t('search.origin')} value={draft.originCityId} onChange={(id) => set({ originCityId: id })} data-testid="truck-search-origin" />
            <RadiusSelect options={SEARCH_PICKUP_RADIUS_KM} value={draft.radius} onChange={(km) => set({ radius: km })} />
            <CitySelect label={t('search.destination')} value={draft.destinationCityId} onChange={(id) => set({ destinationCityId: id })} />
            <Select
              label={t('field.equipment')}
              placeholder={t('search.anyEquipment')}
              data={(eq.data ?? []).map((e) => ({ value: e.code, label: lang === 'ar' ? e.nameAr : e.nameEn }))}
              value={draft.equipmentType}
              onChange={(x) => set({ equipmentType: x })}
              clearable
              searchable
            />
            <DatesProvider settings={{ locale: datesLocale }}>
              <DatePickerInput
                label={t('search.date')}
                value={draft.date}
                onChange={(d) => set({ date: d ? d.slice(0, 10) : null })}
                clearable
                valueFormat="DD/MM/YYYY"
              />
            </DatesProvider>
            <NumberInput
              label={t('search.minCapacity')}
              value={draft.minCapacityKg}
              onChange={(x) => set({ minCapacityKg: typeof x === 'number' ? x : '' })}
              min={0}
            />
            <Select
              label={t('search.sort')}
              data={TRUCK_SORTS.map((s) => ({ value: s, label: t(`search.sortBy.${s}`) }))}
              value={draft.sort}
              onChange={(x) => set({ sort: (x as Filters['sort']) ?? 'deadhead' })}
              allowDeselect={false}
            />
            <Button type="submit" mt={{ base: 0, md: 24 }} leftSection={<IconSearch size={16} />} data-testid="truck-search-submit">
              {t('search.submit')}
            </Button>
          </SimpleGrid>
        </form>
      </Paper>
      <Group justify="space-between" my="md">
        <TruckBoardTotal query={truckFiltersToQuery(applied)} ready={!!q.data} />
        <SegmentedControl
          size="xs"
          value={shown}
          onChange={(v) => setView(v === 'map' || v === 'table' ? v : 'list')}
          data={[
            ...(phone ? [] : [{ value: 'table', label: t('search.table') }]),
            { value: 'list', label: t('search.list') },
            { value: 'map', label: t('search.map') },
          ]}
          data-testid="truck-view-toggle"
        />
      </Group>
      {q.isPending ? (
        <Center py="xl">
          <Loading />
        </Center>
      ) : items.length === 0 ? (
        <Text c="dimmed" data-testid="truck-search-empty">
          {t('search.none')}
        </Text>
      ) : shown === 'map' ? (
        <Suspense fallback={<Loading />}>
          <TrucksMap trucks={items} center={origin ? { lat: origin.lat, lng: origin.lng, radiusKm: applied.radius } : null} onOpen={setOpen} />
        </Suspense>
      ) : (
        <Stack gap="sm" data-testid="truck-results">
          {shown === 'table' ? (
            <TrucksTable
              trucks={items}
              sort={applied.sort}
              canSortDeadhead={!!applied.originCityId}
              onSort={(sort) => apply({ ...applied, sort })}
              onOpen={setOpen}
              actionsOf={offerLoad}
            />
          ) : (
            items.map((truck) => <TruckCard key={truck.id} truck={truck} onOpen={() => setOpen(truck)} actions={offerLoad(truck)} />)
          )}
          {q.hasNextPage && (
            <Button variant="default" onClick={() => void q.fetchNextPage()} loading={q.isFetchingNextPage}>
              {t('search.more')}
            </Button>
          )}
        </Stack>
      )}
      <Drawer
        opened={open !== null}
        onClose={() => setOpen(null)}
        position="right"
        title={open?.referenceId}
        closeButtonProps={{ 'aria-label': t('search.close') }}
      >
        {open && <TruckCard truck={open} detailed actions={offerLoad(open)} />}
      </Drawer>
    </Container>
  );
}
