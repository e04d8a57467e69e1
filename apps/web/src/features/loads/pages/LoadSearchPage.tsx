import { Alert, Button, Center, Container, Group, Loader, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useRef } from 'react';
import { IconList, IconMap } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { asLang, formatCount } from '../../../components/format';
import { Slot } from '../../../components/slots';
import { useCitiesByIds } from '../../../components/reference';
import { rolePaths, useRoleBase } from '../../../components/useViewer';
import { useSearchLoads } from '../api/loads';
import { DisplayToggle } from '../components/DisplayToggle';
import { LoadList } from '../components/LoadList';
import { BookNowBadge, BookNowButton } from '../components/BookNow';
import { BoardShortcuts } from '../components/BoardShortcuts';
import { LoadsPager } from '../components/LoadsPager';
import { SearchFilterBar } from '../components/SearchFilterBar';
import { filtersToParams, filtersToQuery, filtersToSearch, PAGE_SIZE, parseFilters, searchToFilters, type SearchFilters } from '../utils/searchParams';

// Leaflet and its CSS (about 45 KB compressed) load only when the map view opens.
const LoadsMap = lazy(() => import('../../../components/LoadsMap').then((m) => ({ default: m.LoadsMap })));

const SORTS = ['newest', 'pickup', 'price', 'ratePerKm', 'deadhead'] as const;

/** /carriers/load-search, /brokers/load-search, /shippers/search-shipments — filters live in the URL. */
export default function LoadSearchPage() {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const [params, setParams] = useSearchParams();
  const filters = parseFilters(params);
  const base = useRoleBase();
  const paths = rolePaths(base);
  // carriers and brokers book a Book Now load from the board (issue 19)
  const canBook = base === '/carriers' || base === '/brokers';
  const q = useSearchLoads(filtersToQuery(filters, filters.view === 'map' ? 100 : PAGE_SIZE));
  const pickupCity = useCitiesByIds(filters.pickupCityId ? [filters.pickupCityId] : []);
  const center = pickupCity.data?.[0];

  const apply = (f: SearchFilters) => setParams(filtersToParams(f), { replace: false });
  const total = q.data?.total ?? 0;
  const resultsRef = useRef<HTMLDivElement | null>(null);
  const filtersRef = useRef<HTMLDivElement | null>(null);

  return (
    <Container size="xl" py="md">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Title order={2}>{t('search.title')}</Title>
        <Slot name="SavedSearches" kind="loads" filters={filtersToSearch(filters)} onRun={(s) => apply(searchToFilters(s, filters))} />
      </Group>
      <div ref={filtersRef}>
        <SearchFilterBar key={params.toString()} value={filters} onSearch={apply} />
      </div>
      <Group justify="space-between" my="md" wrap="wrap">
        <Text c="dimmed" size="sm" data-testid="search-total">
          {q.data ? (q.data.totalCapped ? t('search.resultsCapped', { n: formatCount(total, true, lang) }) : t('search.results', { count: total })) : ' '}
        </Text>
        <Group gap="sm">
          <Select
            size="xs"
            w={170}
            aria-label={t('search.sort')}
            data={SORTS.filter((s) => s !== 'deadhead' || filters.pickupCityId).map((s) => ({ value: s, label: t(`search.sortBy.${s}`) }))}
            value={filters.sort}
            onChange={(v) => apply({ ...filters, sort: (v as SearchFilters['sort']) ?? 'newest', page: 1, after: null })}
            allowDeselect={false}
            data-testid="search-sort"
          />
          <SegmentedControl
            size="xs"
            value={filters.view}
            onChange={(v) => apply({ ...filters, view: v === 'map' ? 'map' : 'list' })}
            data={[
              {
                value: 'list',
                label: (
                  <Group gap={4} wrap="nowrap">
                    <IconList size={14} />
                    {t('search.list')}
                  </Group>
                ),
              },
              {
                value: 'map',
                label: (
                  <Group gap={4} wrap="nowrap">
                    <IconMap size={14} />
                    {t('search.map')}
                  </Group>
                ),
              },
            ]}
            data-testid="view-toggle"
          />
          {filters.view === 'list' && <DisplayToggle value={filters.display} onChange={(d) => apply({ ...filters, display: d })} />}
          <BoardShortcuts results={resultsRef} filters={filtersRef} />
        </Group>
      </Group>
      {q.isLoading && (
        <Center h={200}>
          <Loader />
        </Center>
      )}
      {q.isError && <Alert color="masarRed">{q.error.message}</Alert>}
      {filters.view === 'map' && q.data && (
        <Stack gap="xs">
          <Suspense
            fallback={
              <Center h={520}>
                <Loader />
              </Center>
            }
          >
            <LoadsMap
              loads={q.data.items}
              hrefOf={(l) => paths.load(l.id)}
              center={center ? { lat: center.lat, lng: center.lng, radiusKm: filters.radius } : null}
            />
          </Suspense>
          {total > q.data.items.length && (
            <Text size="xs" c="dimmed">
              {t('search.mapLimited', { shown: q.data.items.length, total: formatCount(total, q.data.totalCapped, lang) })}
            </Text>
          )}
        </Stack>
      )}
      {filters.view === 'list' && q.data && q.data.items.length === 0 && (
        <Center py="xl">
          <Stack align="center" gap="xs">
            <Text c="dimmed">{t('search.empty')}</Text>
            <Button variant="light" onClick={() => apply(parseFilters(new URLSearchParams()))} data-testid="search-clear">
              {t('search.clearFilters')}
            </Button>
          </Stack>
        </Center>
      )}
      <div ref={resultsRef}>
        {filters.view === 'list' && q.data && q.data.items.length > 0 && (
          <LoadList
            loads={q.data.items}
            mode={filters.display}
            hrefOf={(l) => paths.load(l.id)}
            actionsOf={(l) =>
              l.bookNow ? (
                <Group gap="xs" wrap="nowrap">
                  <BookNowBadge load={l} />
                  {canBook && !l.isMine && <BookNowButton load={l} size="xs" />}
                </Group>
              ) : null
            }
          />
        )}
      </div>
      {filters.view === 'list' && q.data && (
        <LoadsPager
          total={total}
          totalCapped={q.data.totalCapped}
          pageSize={PAGE_SIZE}
          page={filters.page}
          after={filters.after}
          nextCursor={q.data.nextCursor}
          onPage={(p) => apply({ ...filters, page: p, after: null })}
          onAfter={(after) => apply({ ...filters, page: 1, after })}
        />
      )}
    </Container>
  );
}
