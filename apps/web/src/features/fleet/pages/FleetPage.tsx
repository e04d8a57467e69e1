import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Center, Container, Group, Menu, Pagination, SegmentedControl, Select, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconLayoutGrid, IconList, IconPlus, IconUsers } from '@tabler/icons-react';
import { AVAILABILITIES, FLEET_STATES, WASL_STATUSES } from '@masar/shared';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { CsvExportMenu, CsvImportButton } from '../../../components/CsvTransfer';
import { useFleet, type FleetKind } from '../api/fleet';
import { FleetDrawer, type DrawerState } from '../components/FleetDrawer';
import { FleetList } from '../components/FleetList';
import { asLang, formatNumber, useRoleBase } from '../utils/format';
import { SearchBox } from '../../../components/SearchBox';
import { Loading } from '../../../components/Loading';

const PAGE_SIZE = 20;
const VIEW_KEY = 'fleetView';

/**
 * /{role}/fleet-management (spec §2 "Fleet management"): tabs All, Driver, Trailer, Vehicle
 * (0–3), table/grid switch, search, filters, pagination, add/edit/view drawers, row actions.
 * Everything that defines the screen lives in the URL so it can be linked and reloaded.
 */
export default function FleetPage() {
  const { t, i18n } = useTranslation('fleet');
  const base = useRoleBase();
  const [params, setParams] = useSearchParams();
  const tab = Math.min(3, Math.max(0, Number(params.get('tab')) || 0));
  const page = Math.max(1, Number(params.get('page')) || 1);
  const state = params.get('state') ?? undefined;
  const availability = params.get('availability') ?? undefined;
  const wasl = params.get('wasl') ?? undefined;
  // Cards read better than a wide table on a phone: grid by default at or below 768 px (spec §2).
  const [view, setView] = useState<'table' | 'grid'>(() => {
    const stored = localStorage.getItem(VIEW_KEY);
    if (stored === 'grid' || stored === 'table') return stored;
    return window.matchMedia?.('(max-width: 768px)').matches ? 'grid' : 'table';
  });
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [debounced] = useDebouncedValue(search.trim(), 300);

  const update = (changes: Record<string, string | null | undefined>, resetPage = true) =>
    setParams(
      (p) => {
        for (const [k, v] of Object.entries(changes)) {
          if (v === null || v === undefined || v === '') p.delete(k);
          else p.set(k, v);
        }
        if (resetPage && !('page' in changes)) p.delete('page');
        return p;
      },
      { replace: true },
    );

  useEffect(() => {
    if ((params.get('search') ?? '') !== debounced) update({ search: debounced });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);

  const list = useFleet({ tab, search: debounced || undefined, state, availability, wasl, page, pageSize: PAGE_SIZE });
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE_SIZE));
  const counts = list.data?.counts;
  const vehicleFilters = tab === 0 || tab === 3;

  const open = params.get('open');
  const drawer: DrawerState | null = (() => {
    const m = /^(vehicle|trailer|driver):(.+)$/.exec(open ?? '');
    if (!m) return null;
    return { kind: m[1] as FleetKind, id: m[2], mode: params.get('mode') === 'edit' ? 'edit' : 'view' };
  })();
  const setDrawer = (s: DrawerState | null) =>
    update({ open: s ? `${s.kind}:${s.id}` : null, mode: s && s.mode === 'edit' && s.id !== 'new' ? 'edit' : null }, false);

  const tabLabel = (n: number, key: string, count?: number) => (
    <Group gap={6} wrap="nowrap">
      {t(`tabs.${key}`)}
      {count !== undefined && (
        <Badge size="xs" variant="light" color="gray">
          {formatNumber(count, asLang(i18n.language))}
        </Badge>
      )}
    </Group>
  );

  return (
    <Container size="xl" py="md">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={2}>{t('title')}</Title>
        <Group gap="xs" wrap="wrap">
          <Button component={Link} to={`${base}/trusted-drivers`} variant="subtle" leftSection={<IconUsers size={16} />}>
            {t('trusted.title')}
          </Button>
          <CsvImportButton types={['vehicles', 'trailers', 'drivers']} />
          <CsvExportMenu types={['vehicles', 'trailers', 'drivers']} />
          <Menu position="bottom-end">
            <Menu.Target>
              <Button leftSection={<IconPlus size={16} />} data-testid="fleet-add">
                {t('add')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {(['vehicle', 'trailer', 'driver'] as const).map((k) => (
                <Menu.Item key={k} onClick={() => setDrawer({ kind: k, id: 'new', mode: 'edit' })} data-testid={`fleet-add-${k}`}>
                  {t(`addKind.${k}`)}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>

      <Tabs
        value={String(tab)}
        onChange={(v) => update({ tab: v === '0' ? null : v, availability: v === '0' || v === '3' ? availability : null, wasl: v === '2' ? null : wasl })}
        mb="sm"
      >
        <Tabs.List>
          <Tabs.Tab value="0" data-testid="fleet-tab-0">
            {tabLabel(0, 'all', counts?.all)}
          </Tabs.Tab>
          <Tabs.Tab value="1" data-testid="fleet-tab-1">
            {tabLabel(1, 'drivers', counts?.drivers)}
          </Tabs.Tab>
          <Tabs.Tab value="2" data-testid="fleet-tab-2">
            {tabLabel(2, 'trailers', counts?.trailers)}
          </Tabs.Tab>
          <Tabs.Tab value="3" data-testid="fleet-tab-3">
            {tabLabel(3, 'vehicles', counts?.vehicles)}
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>

      <Group gap="xs" mb="md" align="flex-end" wrap="wrap">
        <SearchBox label={t('filters.search')} value={search} onChange={setSearch} testId="fleet-search" />
        <Select
          aria-label={t('filters.state')}
          placeholder={t('filters.state')}
          clearable
          data={FLEET_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
          value={state ?? null}
          onChange={(v) => update({ state: v })}
          w={150}
          data-testid="fleet-filter-state"
        />
        {vehicleFilters && (
          <Select
            aria-label={t('filters.availability')}
            placeholder={t('filters.availability')}
            clearable
            data={AVAILABILITIES.map((s) => ({ value: s, label: t(`availability.${s}`) }))}
            value={availability ?? null}
            onChange={(v) => update({ availability: v })}
            w={150}
            data-testid="fleet-filter-availability"
          />
        )}
        {/* WASL applies to vehicles and drivers (issue 7) */}
        {tab !== 2 && (
          <Select
            aria-label={t('filters.wasl')}
            placeholder={t('filters.wasl')}
            clearable
            data={WASL_STATUSES.map((s) => ({ value: s, label: t(`wasl.${s}`) }))}
            value={wasl ?? null}
            onChange={(v) => update({ wasl: v })}
            w={170}
            data-testid="fleet-filter-wasl"
          />
        )}
        <SegmentedControl
          value={view}
          onChange={(v) => {
            setView(v);
            localStorage.setItem(VIEW_KEY, v);
          }}
          data={[
            { value: 'table', label: <IconList size={16} aria-label={t('view.table')} /> },
            { value: 'grid', label: <IconLayoutGrid size={16} aria-label={t('view.grid')} /> },
          ]}
          data-testid="fleet-view-switch"
        />
      </Group>

      {list.isLoading ? (
        <Center py="xl">
          <Loading />
        </Center>
      ) : list.isError ? (
        <Alert color="red">{list.error.message}</Alert>
      ) : !list.data?.items.length ? (
        <Stack align="center" py="xl" gap="xs" data-testid="fleet-empty">
          <Text c="dimmed">{debounced || state || availability || wasl ? t('empty.filtered') : t('empty.none')}</Text>
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => setDrawer({ kind: tab === 1 ? 'driver' : tab === 2 ? 'trailer' : 'vehicle', id: 'new', mode: 'edit' })}
          >
            {t(`addKind.${tab === 1 ? 'driver' : tab === 2 ? 'trailer' : 'vehicle'}`)}
          </Button>
        </Stack>
      ) : (
        <FleetList rows={list.data.items} tab={tab} view={view} onOpen={(kind, id, mode) => setDrawer({ kind, id, mode })} />
      )}

      {pages > 1 && (
        <Group justify="center" mt="md">
          <Pagination total={pages} value={page} onChange={(p) => update({ page: String(p) }, false)} data-testid="fleet-pagination" />
        </Group>
      )}

      <FleetDrawer state={drawer} onClose={() => setDrawer(null)} onChange={setDrawer} />
    </Container>
  );
}
