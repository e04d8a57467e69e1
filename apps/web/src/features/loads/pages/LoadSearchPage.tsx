import { Alert, Box, Button, Center, Container, Group, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useCallback, useMemo, useRef, useState } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import { IconList, IconMap } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { asLang, formatCount, type Lang } from '../../../components/format';
import { Slot } from '../../../components/slots';
import { useCitiesByIds } from '../../../components/reference';
import { rolePaths, useRoleBase } from '../../../components/useViewer';
import type { BoardCount, Load } from '@masar/shared';
import { useBoardTotal, useSearchLoads } from '../api/loads';
import { LoadsTable } from '../components/LoadsTable';
import { TableControls } from '../components/TableControls';
import { BookNowButton } from '../components/BookNow';
import { LoadBadges } from '../components/LoadBadges';
import { BoardShortcuts } from '../components/BoardShortcuts';
import { LoadsPager } from '../components/LoadsPager';
import { SearchFilterBar } from '../components/SearchFilterBar';
import { boardQueryOf, filtersToParams, filtersToSearch, parseFilters, searchToFilters, type SearchFilters } from '../utils/searchParams';
import { Loading } from '../../../components/Loading';

// Leaflet and its CSS (about 45 KB compressed) load only when a map shows (the map view, or beside the table on wide screens).
const LoadsMap = lazy(() => import('../../../components/LoadsMap').then((m) => ({ default: m.LoadsMap })));

/** Spec §2: phones at or below 768 px get cards instead of the table. */
const PHONE = '(max-width: 768px)';
/** From here the map sits beside the table (issue 23): the table keeps its 1,100 px of columns. */
const WIDE = '(min-width: 1600px)';
const SORTS = ['newest', 'pickup', 'price', 'ratePerKm', 'deadhead'] as const;

/** The board's count line (issue 45): "Counting loads…" until GET /loads/count answers, then the count ("1,000+" when capped). */
function countText(t: TFunction, c: BoardCount | undefined, lang: Lang): string {
  if (!c) return t('search.counting');
  return c.totalCapped ? t('search.resultsCapped', { n: formatCount(c.total, true, lang) }) : t('search.results', { count: c.total });
}

/** /carriers/load-search, /brokers/load-search, /shippers/search-shipments — filters live in the URL. */
export default function LoadSearchPage() {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const [params, setParams] = useSearchParams();
  const filters = parseFilters(params);
  const base = useRoleBase();
  const paths = useMemo(() => rolePaths(base), [base]);
  // carriers and brokers book a Book Now load from the board (issue 19)
  const canBook = base === '/carriers' || base === '/brokers';
  const phone = useMediaQuery(PHONE, window.matchMedia?.(PHONE).matches ?? false) ?? false;
  const wide = useMediaQuery(WIDE, window.matchMedia?.(WIDE).matches ?? false) ?? false;
  const q = useSearchLoads(boardQueryOf(filters));
  const pickupCity = useCitiesByIds(filters.pickupCityId ? [filters.pickupCityId] : []);
  const center = pickupCity.data?.[0];
  // the row under the pointer (or focus), highlighted on the map beside the table
  const [hovered, setHovered] = useState<string | null>(null);

  const apply = (f: SearchFilters) => setParams(filtersToParams(f), { replace: false });
  const { count, total, totalCapped } = useBoardTotal(boardQueryOf(filters), !!q.data);
  const resultsRef = useRef<HTMLDivElement | null>(null);
  const filtersRef = useRef<HTMLDivElement | null>(null);
  // stable, so the table's columns are not rebuilt on every render (a hover re-renders the page)
  const hrefOf = useCallback((l: Load) => paths.load(l.id), [paths]);
  const actionsOf = useCallback(
    (l: Load) =>
      l.bookNow || l.paymentProtection ? (
        <Group gap="xs" wrap="nowrap">
          <LoadBadges load={l} />
          {l.bookNow && canBook && !l.isMine && <BookNowButton load={l} size="compact-xs" />}
        </Group>
      ) : null,
    [canBook],
  );
  const mapOf = (height: number | string) => (
    <Suspense
      fallback={
        <Center h={height}>
          <Loading />
        </Center>
      }
    >
      <LoadsMap
        loads={q.data?.items ?? []}
        hrefOf={hrefOf}
        center={center ? { lat: center.lat, lng: center.lng, radiusKm: filters.radius } : null}
        height={height}
        highlightId={hovered}
      />
    </Suspense>
  );
  const list = filters.view === 'list';
  const aside = list && wide && !phone;

  return (
    <Container fluid py="md" px={{ base: 'xs', sm: 'md' }}>
      <Group justify="space-between" mb="md" wrap="wrap">
        <Title order={2}>{t('search.title')}</Title>
        <Slot name="SavedSearches" kind="loads" filters={filtersToSearch(filters)} onRun={(s) => apply(searchToFilters(s, filters))} />
      </Group>
      <div ref={filtersRef}>
        <SearchFilterBar key={params.toString()} value={filters} onSearch={apply} />
      </div>
      <Group justify="space-between" my="sm" wrap="wrap" gap="xs">
        <Text c="dimmed" size="sm" data-testid="search-total">
          {q.data ? countText(t, count, lang) : ' '}
        </Text>
        <Group gap="sm">
          {/* the table sorts by its column heads; cards and the map have no heads */}
          {(phone || !list) && (
            <Select
              size="xs"
              w={150}
              aria-label={t('search.sort')}
              data={SORTS.filter((s) => s !== 'deadhead' || filters.pickupCityId).map((s) => ({ value: s, label: t(`search.sortBy.${s}`) }))}
              value={filters.sort}
              onChange={(v) => apply({ ...filters, sort: (v as SearchFilters['sort']) ?? 'newest', page: 1, after: null })}
              allowDeselect={false}
              data-testid="search-sort"
            />
          )}
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
          {list && (
            <TableControls
              density={filters.density}
              pageSize={filters.pageSize}
              showDensity={!phone}
              onDensity={(density) => apply({ ...filters, density })}
              onPageSize={(pageSize) => apply({ ...filters, pageSize, page: 1, after: null })}
            />
          )}
          <BoardShortcuts results={resultsRef} filters={filtersRef} />
        </Group>
      </Group>
      {q.isLoading && (
        <Center h={200}>
          <Loading />
        </Center>
      )}
      {q.isError && <Alert color="masarRed">{q.error.message}</Alert>}
      {filters.view === 'map' && q.data && (
        <Stack gap="xs">
          {mapOf(520)}
          {total > q.data.items.length && (
            <Text size="xs" c="dimmed">
              {t('search.mapLimited', { shown: q.data.items.length, total: formatCount(total, totalCapped, lang) })}
            </Text>
          )}
        </Stack>
      )}
      {list && q.data && q.data.items.length === 0 && (
        <Center py="xl">
          <Stack align="center" gap="xs">
            <Text c="dimmed">{t('search.empty')}</Text>
            <Button variant="light" onClick={() => apply(parseFilters(new URLSearchParams()))} data-testid="search-clear">
              {t('search.clearFilters')}
            </Button>
          </Stack>
        </Center>
      )}
      <Box style={aside ? { display: 'flex', gap: 'var(--mantine-spacing-md)', alignItems: 'flex-start' } : undefined}>
        <div ref={resultsRef} style={aside ? { flex: '1 1 0', minWidth: 0 } : undefined}>
          {list && q.data && q.data.items.length > 0 && (
            <LoadsTable
              loads={q.data.items}
              hrefOf={hrefOf}
              sort={filters.sort === 'deadhead' && !filters.pickupCityId ? 'newest' : filters.sort}
              canSortDeadhead={!!filters.pickupCityId}
              onSort={(sort) => apply({ ...filters, sort, page: 1, after: null })}
              density={filters.density}
              cards={phone}
              actionsOf={actionsOf}
              onHover={aside ? setHovered : undefined}
            />
          )}
          {list && q.data && (
            <LoadsPager
              total={total}
              totalCapped={totalCapped}
              pageSize={filters.pageSize}
              page={filters.page}
              after={filters.after}
              nextCursor={q.data.nextCursor}
              onPage={(p) => apply({ ...filters, page: p, after: null })}
              onAfter={(after) => apply({ ...filters, page: 1, after })}
            />
          )}
        </div>
        {aside && q.data && q.data.items.length > 0 && (
          <Box
            component="aside"
            aria-label={t('shipments:table.mapAside')}
            style={{ flex: '0 0 clamp(360px, 26%, 640px)', position: 'sticky', insetBlockStart: 'calc(4rem + var(--mantine-spacing-md))' }}
            data-testid="loads-map-aside"
          >
            {mapOf('calc(100vh - 6rem)')}
          </Box>
        )}
      </Box>
    </Container>
  );
}
