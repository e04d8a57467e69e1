import { useMemo, useState } from 'react';
import {
  Alert,
  Card,
  Center,
  Container,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  useDirection,
  VisuallyHidden,
} from '@mantine/core';
import { LineChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useSearchParams } from 'react-router';
import { RATE_MAX_COMPANY_SHARE, RATE_MIN_COMPANIES, RATE_MIN_RECORDS, RATE_WINDOWS, type LaneRate, type LaneRateHistory } from '@masar/shared';
import { CitySelect } from '../../../components/CitySelect';
import { asLang, formatMoney, formatNumber, formatPercent, type Lang } from '../../../components/format';
import { refName, useEquipmentTypes } from '../../../components/reference';
import { digitSystem } from '../../../lib/digits';
import { useLaneHistory, useLaneRate } from '../api/rates';
import { Loading } from '../../../components/Loading';

type Kind = 'spot' | 'contract';
type Unit = 'trip' | 'km';

/** A SAR figure per trip (whole riyals) or per km (two decimals). */
const sar = (v: number, unit: Unit, lang: Lang) => formatMoney(unit === 'km' ? v.toFixed(2) : Math.round(v), lang, { decimals: unit === 'km' ? 2 : 0 });

/** "Jan 2026" / "يناير ٢٠٢٦" in the reader's digits. */
const monthLabel = (month: string, lang: Lang) =>
  new Intl.DateTimeFormat(lang === 'ar' ? 'ar-SA-u-ca-gregory' : 'en-GB', {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
    numberingSystem: digitSystem(lang),
  }).format(new Date(`${month}-01T00:00:00Z`));

/**
 * /shippers|carriers|brokers/market-rates (issue 20 "The lane rate index", spec §2 market rates):
 * origin and destination cities, equipment, window (7–90 days, 1 year), spot or contract, per trip
 * or per km; the figure card (average, median, low–high, 2.5–97.5, standard deviation, records and
 * companies, the geography and window it is based on, my own average) or "not enough data" — a
 * figure of a wider geography than the lane is titled with that geography under "Not enough data for
 * this lane yet" (issue 46), never shown as the lane's; and
 * the 13-month history as a chart (RTL-mirrored axes) or a table.
 */
export default function MarketRatesPage() {
  const { t, i18n } = useTranslation('rates');
  const lang = asLang(i18n.language);
  const equipmentTypes = useEquipmentTypes();
  // the lane and its options live in the URL: a market-rates view is a link to share or bookmark
  const [params, setParams] = useSearchParams();
  const num = (k: string) => (Number(params.get(k)) > 0 ? Number(params.get(k)) : null);
  const origin = num('origin');
  const destination = num('destination');
  const equipment = params.get('equipment') || null;
  const window = RATE_WINDOWS.find((w) => w === num('window')) ?? 30;
  const kind: Kind = params.get('kind') === 'contract' ? 'contract' : 'spot';
  const unit: Unit = params.get('unit') === 'km' ? 'km' : 'trip';
  const set = (k: string, v: string | number | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (v === null || v === '') next.delete(k);
        else next.set(k, String(v));
        return next;
      },
      { replace: true },
    );
  const setOrigin = (v: number | null) => set('origin', v);
  const setDestination = (v: number | null) => set('destination', v);
  const setEquipment = (v: string | null) => set('equipment', v);
  const setWindow = (v: number) => set('window', v === 30 ? null : v);
  const setKind = (v: Kind) => set('kind', v === 'spot' ? null : v);
  const setUnit = (v: Unit) => set('unit', v === 'trip' ? null : v);
  const lane = origin && destination ? { origin, destination, kind, ...(equipment ? { equipment } : {}) } : null;
  const rate = useLaneRate(lane ? { ...lane, window } : null);
  const history = useLaneHistory(lane);
  const days = (n: number) => (n === 365 ? t('year') : t('days', { count: n, n: formatNumber(n, lang) }));

  return (
    <Container size="lg" py="md">
      <Title order={2} mb="xs">
        {t('title')}
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        {t('intro')}
      </Text>
      <Paper withBorder p="md" mb="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <CitySelect label={t('origin')} value={origin} onChange={(id) => setOrigin(id)} data-testid="rates-origin" />
          <CitySelect label={t('destination')} value={destination} onChange={(id) => setDestination(id)} data-testid="rates-destination" />
          <Select
            label={t('equipment')}
            placeholder={t('allEquipment')}
            clearable
            value={equipment}
            onChange={setEquipment}
            data={(equipmentTypes.data ?? []).map((e) => ({ value: e.code, label: refName(equipmentTypes.data, e.code, lang) }))}
            data-testid="rates-equipment"
          />
        </SimpleGrid>
        <Group mt="sm" gap="md" wrap="wrap">
          <Stack gap={4} maw="100%" style={{ overflowX: 'auto' }}>
            <Text size="sm" fw={500} id="rates-window-label">
              {t('window')}
            </Text>
            <SegmentedControl
              aria-labelledby="rates-window-label"
              value={String(window)}
              onChange={(v) => setWindow(Number(v))}
              data={RATE_WINDOWS.map((w) => ({ value: String(w), label: days(w) }))}
              data-testid="rates-window"
            />
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="rates-kind-label">
              {t('kind')}
            </Text>
            <SegmentedControl
              aria-labelledby="rates-kind-label"
              value={kind}
              onChange={(v) => setKind(v)}
              data={(['spot', 'contract'] as const).map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
              data-testid="rates-kind"
            />
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="rates-unit-label">
              {t('unit')}
            </Text>
            <SegmentedControl
              aria-labelledby="rates-unit-label"
              value={unit}
              onChange={(v) => setUnit(v)}
              data={(['trip', 'km'] as const).map((u) => ({ value: u, label: t(`units.${u}`) }))}
              data-testid="rates-unit"
            />
          </Stack>
        </Group>
      </Paper>

      {!lane ? (
        <Text c="dimmed">{t('pickLane')}</Text>
      ) : rate.isPending ? (
        <Center py="xl">
          <Loading />
        </Center>
      ) : rate.data ? (
        <Stack gap="md">
          <FigureCard r={rate.data} unit={unit} lang={lang} days={days} />
          {history.data ? <HistoryPanel h={history.data} lang={lang} /> : null}
        </Stack>
      ) : null}
    </Container>
  );
}

/** My own average on the lane in the window, or that I have none (the figure card's last line). */
const ownValue = (r: LaneRate, lang: Lang, t: TFunction<'rates'>) =>
  r.own.records > 0 && r.own.average !== null
    ? t('ownValue', { count: r.own.records, n: formatNumber(r.own.records, lang), value: sar(r.own.average, 'trip', lang) })
    : t('ownValue', { count: 0, n: formatNumber(0, lang) });

function FigureCard({ r, unit, lang, days }: { r: LaneRate; unit: Unit; lang: Lang; days: (n: number) => string }) {
  const { t } = useTranslation('rates');
  const own = ownValue(r, lang, t);
  if (!r.enough || !r.perTrip) {
    return (
      <Alert color="gray" title={t('laneNotEnough')} data-testid="rates-not-enough">
        <Text size="sm">
          {t('notEnoughHelp', {
            records: formatNumber(RATE_MIN_RECORDS, lang),
            companies: formatNumber(RATE_MIN_COMPANIES, lang),
            share: formatPercent(RATE_MAX_COMPANY_SHARE, lang),
          })}
        </Text>
        <Text size="sm" mt="xs">
          {t('own')}: {own}
        </Text>
      </Alert>
    );
  }
  const f = unit === 'km' && r.perKm ? r.perKm : r.perTrip;
  const money = (v: number) => (unit === 'km' ? t('perKmValue', { value: sar(v, 'km', lang) }) : sar(v, 'trip', lang));
  const g = r.geography!;
  const name = (p: { en: string; ar: string } | null) => (p ? (lang === 'ar' ? p.ar : p.en) : '');
  const place = (p: { en: string; ar: string } | null, region: boolean) => (region ? t('regionOf', { name: name(p) }) : name(p));
  const geography =
    g.level === 'national'
      ? t('national')
      : t('lane', { origin: place(g.origin, g.level.startsWith('region')), destination: place(g.destination, g.level.endsWith('_region')) });
  return (
    <Card withBorder padding="lg" data-testid="rates-figure">
      <FigureHeading widened={r.code === 'LANE_NOT_ENOUGH_DATA'} geography={geography} />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            {t('average')}
          </Text>
          <Text size="xl" fw={700} data-testid="rates-average">
            {money(f.average)}
          </Text>
        </Stack>
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            {t('median')}
          </Text>
          <Text fw={600}>{money(f.median)}</Text>
        </Stack>
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            {t('lowHigh')}
          </Text>
          <Text fw={600}>{t('range', { low: money(f.p25), high: money(f.p75) })}</Text>
        </Stack>
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            {t('wide', { low: formatNumber(2.5, lang, 1), high: formatNumber(97.5, lang, 1) })}
          </Text>
          <Text>{t('range', { low: money(f.p2_5), high: money(f.p97_5) })}</Text>
        </Stack>
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            {t('stdDev')}
          </Text>
          <Text>{money(f.stdDev)}</Text>
        </Stack>
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            {t('own')}
          </Text>
          <Text data-testid="rates-own">{own}</Text>
        </Stack>
      </SimpleGrid>
      <Text size="sm" mt="md" data-testid="rates-sample">
        {t('records', { count: r.records, n: formatNumber(r.records, lang), companies: formatNumber(r.companies, lang) })}{' '}
        {t('basedOn', { geography, window: days(r.window ?? r.windowRequested) })}
      </Text>
      <Text size="xs" c="dimmed" mt={4}>
        {t('outliers', { count: r.outliersExcluded, n: formatNumber(r.outliersExcluded, lang), mads: formatNumber(3, lang) })}
      </Text>
    </Card>
  );
}

/**
 * The figure's geography as its title; when it is wider than the lane (issue 46 "Honest thin
 * lanes"), "Not enough data for this lane yet" first, so the figure is read for what it is.
 */
function FigureHeading({ widened, geography }: { widened: boolean; geography: string }) {
  const { t } = useTranslation('rates');
  return (
    <>
      {widened ? (
        <Alert color="yellow" title={t('laneNotEnough')} mb="md" data-testid="rates-lane-not-enough">
          {t('widenedTo', { geography })}
        </Alert>
      ) : null}
      <Title order={3} size="h5" mb="sm" data-testid="rates-geography">
        {geography}
      </Title>
    </>
  );
}

/** The history panel when no month of the lane may be published (issue 46): a message, not a blank chart. */
function HistoryEmpty({ lang }: { lang: Lang }) {
  const { t } = useTranslation('rates');
  return (
    <Paper withBorder p="md" data-testid="rates-history">
      <Title order={3} size="h4" mb="sm">
        {t('history', { n: formatNumber(13, lang) })}
      </Title>
      <Text c="dimmed" data-testid="rates-history-empty">
        {t('historyEmpty')}
      </Text>
    </Paper>
  );
}

function HistoryPanel({ h, lang }: { h: LaneRateHistory; lang: Lang }) {
  const { t } = useTranslation('rates');
  const rtl = useDirection().dir === 'rtl';
  const [view, setView] = useState<'chart' | 'table'>('chart');
  // my bookings per month (average of my prices that month)
  const ownByMonth = useMemo(() => {
    const m = new Map<string, { sum: number; n: number }>();
    for (const b of h.own) {
      const k = b.date.slice(0, 7);
      const v = m.get(k) ?? { sum: 0, n: 0 };
      m.set(k, { sum: v.sum + b.priceSar, n: v.n + 1 });
    }
    return m;
  }, [h.own]);
  const rows = h.months.map((m) => {
    const o = ownByMonth.get(m.month);
    return { ...m, label: monthLabel(m.month, lang), own: o ? Math.round(o.sum / o.n) : null };
  });
  const money = (v: number | null) => (v === null ? t('noFigure') : formatMoney(Math.round(v), lang));
  if (h.months.every((m) => m.average === null) && h.own.length === 0) return <HistoryEmpty lang={lang} />;
  const table = (
    <Table.ScrollContainer minWidth={480}>
      <Table striped data-testid="rates-history-table">
        <Table.Caption>{t('historyCaption')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('month')}</Table.Th>
            <Table.Th>{t('average')}</Table.Th>
            <Table.Th>{t('p25', { p: formatNumber(25, lang) })}</Table.Th>
            <Table.Th>{t('p75', { p: formatNumber(75, lang) })}</Table.Th>
            <Table.Th>{t('monthRecords')}</Table.Th>
            <Table.Th>{t('ownMonth')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.month}>
              <Table.Td>{r.label}</Table.Td>
              <Table.Td>{money(r.average)}</Table.Td>
              <Table.Td>{r.average === null ? '–' : money(r.p25)}</Table.Td>
              <Table.Td>{r.average === null ? '–' : money(r.p75)}</Table.Td>
              <Table.Td>{formatNumber(r.records, lang)}</Table.Td>
              <Table.Td>{r.own === null ? '–' : money(r.own)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
  return (
    <Paper withBorder p="md" data-testid="rates-history">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={3} size="h4">
          {t('history', { n: formatNumber(13, lang) })}
        </Title>
        <SegmentedControl
          aria-label={t('view')}
          value={view}
          onChange={(v) => setView(v)}
          data={[
            { value: 'chart', label: t('chart') },
            { value: 'table', label: t('table') },
          ]}
          data-testid="rates-history-view"
        />
      </Group>
      {/* the history as a table: shown in table view, read by assistive technology in chart view */}
      {view === 'chart' ? (
        <>
          {/* inert: the chart's SVG leaves the tab order and the accessibility tree; the same figures are read from the table */}
          <div inert>
            <LineChart
              h={280}
              data={rows}
              dataKey="label"
              connectNulls={false}
              withLegend
              series={[
                { name: 'average', label: t('average'), color: 'teal.6' },
                { name: 'p25', label: t('p25', { p: formatNumber(25, lang) }), color: 'gray.5', strokeDasharray: '4 4' },
                { name: 'p75', label: t('p75', { p: formatNumber(75, lang) }), color: 'gray.5', strokeDasharray: '4 4' },
                { name: 'own', label: t('ownMonth'), color: 'orange.6' },
              ]}
              valueFormatter={(v) => formatNumber(Math.round(v), lang)}
              xAxisProps={{ reversed: rtl }}
              yAxisProps={{ orientation: rtl ? 'right' : 'left', width: 70 }}
            />
          </div>
          <VisuallyHidden>{table}</VisuallyHidden>
        </>
      ) : (
        table
      )}
    </Paper>
  );
}
