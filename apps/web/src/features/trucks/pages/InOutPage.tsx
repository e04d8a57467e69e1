import { useState } from 'react';
import { Badge, Button, Center, Container, Group, Paper, Select, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconRefresh, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { SEARCH_PICKUP_RADIUS_KM, type InOutDirection, type Load, type Truck } from '@masar/shared';
import { CitySelect } from '../../../components/CitySelect';
import { LoadCard } from '../../../components/LoadCard';
import { RadiusSelect } from '../../../components/RadiusSelect';
import { asLang, formatCount, formatDate, formatNumber } from '../../../components/format';
import { useInOutLog, useTruckFilters, type InOutKind, type InOutQuery } from '../api/trucks';
import { TruckCard } from '../components/TruckCard';
import { Loading } from '../../../components/Loading';

/** The windows offered, in days from now (the server takes up to 31). */
export const INOUT_WINDOWS_DAYS = [1, 3, 7, 14, 31] as const;

interface Filters {
  cityId: number | null;
  radius: number;
  days: number;
}

/**
 * /shippers|brokers/truck-in-truck-out (`kind` trucks) and /carriers|brokers/shipment-in-shipment-out
 * (`kind` loads), spec §2 truck in/out, shipment in/out: a city, a radius (the spec's options from
 * /truckFilters) and a window from now; In / Out tabs with their counts ("1,000+" past the cap),
 * the area's load-to-truck ratio of the last 24 h, the trucks (TruckCard) or loads (LoadCard),
 * and Refresh (the …/refresh endpoints).
 */
export default function InOutPage({ kind = 'trucks' }: { kind?: InOutKind }) {
  const { t, i18n } = useTranslation('trucks');
  const lang = asLang(i18n.language);
  const prefix = `/${useLocation().pathname.split('/')[1] ?? 'brokers'}`;
  const filters = useTruckFilters();
  const radii = filters.data?.radiusOptionsKm ?? [...SEARCH_PICKUP_RADIUS_KM];
  const [draft, setDraft] = useState<Filters>({ cityId: null, radius: 100, days: 7 });
  const [query, setQuery] = useState<Omit<InOutQuery, 'direction'> | null>(null);
  const [direction, setDirection] = useState<InOutDirection>('in');
  const [refreshedAt, setRefreshedAt] = useState(0);
  const log = useInOutLog(kind, query ? { ...query, direction } : null, refreshedAt);
  const first = log.data?.pages[0];
  const items: (Truck | Load)[] = log.data?.pages.flatMap((p): (Truck | Load)[] => p.items) ?? [];
  const set = (patch: Partial<Filters>) => setDraft((d) => ({ ...d, ...patch }));

  const apply = () => {
    if (!draft.cityId) return;
    const from = new Date();
    setRefreshedAt(0);
    setQuery({
      cityId: draft.cityId,
      radius: draft.radius,
      from: from.toISOString(),
      to: new Date(from.getTime() + draft.days * 86_400_000).toISOString(),
      limit: 20,
    });
  };
  const tab = (d: InOutDirection) => (
    <Tabs.Tab
      value={d}
      data-testid={`inout-tab-${d}`}
      rightSection={first ? <Badge variant="light">{formatCount(first.counts[d].total, first.counts[d].capped, lang)}</Badge> : null}
    >
      {t(`inout.${kind}.${d}`)}
    </Tabs.Tab>
  );

  return (
    <Container size="xl" py="md">
      <Title order={2} mb="md">
        {t(`inout.${kind}.title`)}
      </Title>
      <Paper withBorder p="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            apply();
          }}
          data-testid="inout-form"
        >
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
            <CitySelect label={t('inout.city')} value={draft.cityId} onChange={(id) => set({ cityId: id })} data-testid="inout-city" />
            <RadiusSelect options={radii} value={draft.radius} onChange={(km) => set({ radius: km })} />
            <Select
              label={t('inout.window')}
              data={INOUT_WINDOWS_DAYS.map((d) => ({ value: String(d), label: t(`inout.next.${d}`) }))}
              value={String(draft.days)}
              onChange={(v) => set({ days: Number(v) || 7 })}
              allowDeselect={false}
            />
            <Button type="submit" mt={{ base: 0, md: 24 }} leftSection={<IconSearch size={16} />} disabled={!draft.cityId} data-testid="inout-submit">
              {t('inout.show')}
            </Button>
          </SimpleGrid>
        </form>
      </Paper>
      {!query ? (
        <Text c="dimmed" mt="md" data-testid="inout-pick-city">
          {t('inout.pickCity')}
        </Text>
      ) : (
        <Stack gap="sm" mt="md">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm" data-testid="inout-ratio">
              {first
                ? first.ratio.ratio === null
                  ? t('inout.ratioNone', { loads: formatNumber(first.ratio.loads, lang) })
                  : t('inout.ratio', {
                      ratio: formatNumber(first.ratio.ratio, lang, 2),
                      loads: formatNumber(first.ratio.loads, lang),
                      trucks: formatNumber(first.ratio.trucks, lang),
                    })
                : '…'}
            </Text>
            <Group gap="xs">
              {first && (
                <Text size="xs" c="dimmed">
                  {t('card.window', { from: formatDate(first.from, lang, false), to: formatDate(first.to, lang, false) })}
                </Text>
              )}
              <Button
                variant="default"
                size="xs"
                leftSection={<IconRefresh size={14} />}
                onClick={() => setRefreshedAt(Date.now())}
                loading={log.isFetching && !log.isFetchingNextPage}
                data-testid="inout-refresh"
              >
                {t('inout.refresh')}
              </Button>
            </Group>
          </Group>
          <Tabs value={direction} onChange={(v) => setDirection(v === 'out' ? 'out' : 'in')}>
            <Tabs.List>
              {tab('in')}
              {tab('out')}
            </Tabs.List>
          </Tabs>
          {log.isPending ? (
            <Center py="xl">
              <Loading />
            </Center>
          ) : items.length === 0 ? (
            <Text c="dimmed" data-testid="inout-empty">
              {t(`inout.${kind}.none`)}
            </Text>
          ) : (
            <Stack gap="sm" data-testid="inout-results">
              {kind === 'trucks'
                ? (items as Truck[]).map((truck) => <TruckCard key={truck.id} truck={truck} />)
                : (items as Load[]).map((load) => <LoadCard key={load.id} load={load} mode="line" href={`${prefix}/loads/${load.id}`} />)}
              {log.hasNextPage && (
                <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
                  {t('search.more')}
                </Button>
              )}
            </Stack>
          )}
        </Stack>
      )}
    </Container>
  );
}
