import '@mantine/charts/styles.css';
import { useState } from 'react';
import { AreaChart, BarChart, DonutChart, LineChart } from '@mantine/charts';
import { Alert, Center, Container, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title, useDirection } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_PERIODS, STATISTIC_KEYS, type Dashboard, type DashboardLane, type DashboardPeriod } from '@masar/shared';
import { asLang, formatMoney, formatNumber, formatPercent, type Lang } from '../../../components/format';
import { useRoleBase } from '../../../components/useViewer';
import { dateTimeFormat } from '../../../lib/intl';
import { digitSystem } from '../../../lib/digits';
import { useDashboard } from '../api/dashboards';
import { ChartCard } from '../components/ChartCard';
import { StatCard, type StatKind } from '../components/StatCard';
import { Loading } from '../../../components/Loading';

const KIND: Record<(typeof STATISTIC_KEYS)[number], StatKind> = {
  loads_posted: 'count',
  loads_assigned: 'count',
  loads_open: 'count',
  loads_expired: 'count',
  avg_offers_per_load: 'decimal',
  final_value: 'sar',
};

const sar = (v: number, lang: Lang) => formatMoney(v.toFixed(2).replace(/\.00$/, ''), lang);
const num = (v: number, lang: Lang, d = 0) => formatNumber(v, lang, d);
/** "Riyadh → Jeddah"; in Arabic the arrow points the way the line reads ("الرياض ← جدة"). */
const laneName = (l: DashboardLane, lang: Lang) => `${l.originCity} ${lang === 'ar' ? '←' : '→'} ${l.destinationCity}`;
/** A whole percentage (0…100) in the reader's digits. */
const pctText = (v: number, lang: Lang) => formatPercent(v / 100, lang);

/** A day ("26 Nov") or a month ("Nov 2026") of a trend, in the reader's language and digits. */
function bucketLabel(bucket: string, granularity: 'day' | 'month', lang: Lang) {
  const f = dateTimeFormat(lang === 'ar' ? 'ar-SA-u-ca-gregory' : 'en-GB', {
    timeZone: 'UTC',
    numberingSystem: digitSystem(lang),
    ...(granularity === 'day' ? { day: 'numeric', month: 'short' } : { month: 'short', year: 'numeric' }),
  });
  return f.format(new Date(`${bucket}T00:00:00Z`));
}

/**
 * /shippers|brokers|carriers/dashboard (issue 20 "Dashboards"; spec §2): the period filter (This
 * Week / This Month / This Year), then for shippers and brokers the six statistic keys with their
 * change, spend by lane and the on-time arrivals of my carriers; for carriers and brokers the
 * carrier insights — offers won and lost, revenue trend, popular routes, top lane analysis, quick
 * lane stats and my rate trend (SAR/km per month). One GET /dashboard per period. Every chart
 * has a table view; axes mirror in Arabic and numbers follow the reader's digit system.
 */
export default function DashboardPage() {
  const { t, i18n } = useTranslation('dashboard');
  const lang = asLang(i18n.language);
  const [period, setPeriod] = useState<DashboardPeriod>('month');
  const q = useDashboard(period, lang);
  // the role section of the path decides (a broker has both sides)
  const base = useRoleBase();
  const showShipper = base !== '/carriers';
  const showCarrier = base !== '/shippers';

  return (
    <Container size="xl" py="md">
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <Title order={2}>{t('title')}</Title>
        <SegmentedControl
          value={period}
          onChange={(v) => setPeriod(v)}
          data={DASHBOARD_PERIODS.map((p) => ({ value: p, label: t(`period.${p}`) }))}
          aria-label={t('period.label')}
          data-testid="dashboard-period"
        />
      </Group>
      {q.isError ? (
        <Alert color="red" title={t('error')} />
      ) : !q.data ? (
        <Center mih={240}>
          <Loading label={t('loading')} />
        </Center>
      ) : (
        <Stack gap="lg" data-testid="dashboard" data-period={q.data.range.period} aria-busy={q.isFetching}>
          {showShipper && <ShipperSection d={q.data} lang={lang} />}
          {showCarrier && <CarrierSection d={q.data} lang={lang} />}
        </Stack>
      )}
    </Container>
  );
}

function ShipperSection({ d, lang }: { d: Dashboard; lang: Lang }) {
  const { t } = useTranslation('dashboard');
  const { dir } = useDirection();
  const s = d.shipper;
  const lanes = s.spendByLane.map((l) => ({ lane: laneName(l, lang), spend: l.valueSar }));
  const onTime = s.carrierOnTime;
  const pct = (v: number | null) => (v === null ? t('onTime.none') : pctText(v, lang));
  return (
    <Stack gap="md" component="section" aria-labelledby="dash-shipper">
      <Title order={3} size="h4" id="dash-shipper">
        {t('shipper.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
        {STATISTIC_KEYS.map((k) => (
          <StatCard key={k} label={t(`stats.${k}`)} stat={s.stats[k]} kind={KIND[k]} testId={`stat-${k}`} />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ChartCard
          title={t('shipper.spendByLane')}
          testId="spend-by-lane"
          empty={lanes.length === 0}
          table={{
            columns: [t('col.lane'), t('col.loads'), t('col.spend'), t('col.avg')],
            rows: s.spendByLane.map((l) => [laneName(l, lang), num(l.loads, lang), sar(l.valueSar, lang), sar(l.avgSar, lang)]),
          }}
        >
          <BarChart
            h={Math.max(180, lanes.length * 36)}
            data={lanes}
            dataKey="lane"
            orientation="vertical"
            series={[{ name: 'spend', label: t('col.spend'), color: 'blue.6' }]}
            valueFormatter={(v) => sar(v, lang)}
            xAxisProps={{ reversed: dir === 'rtl', tickFormatter: (v: number) => num(v, lang) }}
            yAxisProps={{ orientation: dir === 'rtl' ? 'right' : 'left', width: 140 }}
          />
        </ChartCard>
        <Paper withBorder p="md" radius="md" data-testid="carrier-on-time">
          <Title order={3} size="h5" mb="sm">
            {t('onTime.title')}
          </Title>
          {onTime.pickupsMeasured + onTime.deliveriesMeasured === 0 ? (
            <Center mih={120}>
              <Text c="dimmed" size="sm" ta="center">
                {t('onTime.empty')}
              </Text>
            </Center>
          ) : (
            <SimpleGrid cols={2}>
              {(
                [
                  ['pickup', onTime.onTimePickupPct, onTime.pickupsMeasured],
                  ['delivery', onTime.onTimeDeliveryPct, onTime.deliveriesMeasured],
                ] as const
              ).map(([k, v, n]) => (
                <div key={k}>
                  <Text size="sm" c="dimmed">
                    {t(`onTime.${k}`)}
                  </Text>
                  <Text fz={26} fw={700}>
                    {pct(v)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('onTime.measured', { n: num(n, lang) })}
                  </Text>
                </div>
              ))}
            </SimpleGrid>
          )}
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}

function CarrierSection({ d, lang }: { d: Dashboard; lang: Lang }) {
  const { t } = useTranslation('dashboard');
  const { dir } = useDirection();
  const c = d.carrier;
  const o = c.offers;
  const rev = c.revenue;
  const points = rev.points.map((p) => ({ bucket: bucketLabel(p.bucket, rev.granularity, lang), revenue: p.revenueSar, loads: p.loads }));
  const rates = rev.rateTrend.filter((r) => r.perKmSar !== null).map((r) => ({ month: bucketLabel(r.month, 'month', lang), own: r.perKmSar }));
  const popular = c.popularRoutes.map((l) => ({ lane: laneName(l, lang), loads: l.loads }));
  const top = c.topLanes[0];
  const winLost = [
    { name: t('carrier.won'), value: o.won.value, color: 'teal.6' },
    { name: t('carrier.lost'), value: o.lost.value, color: 'red.6' },
  ];
  const xMirror = { reversed: dir === 'rtl' };
  const yMirror = { orientation: dir === 'rtl' ? ('right' as const) : ('left' as const), tickFormatter: (v: number) => num(v, lang) };
  return (
    <Stack gap="md" component="section" aria-labelledby="dash-carrier">
      <Title order={3} size="h4" id="dash-carrier">
        {t('carrier.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
        <StatCard label={t('carrier.offersMade')} stat={o.offersMade} kind="count" testId="stat-offers-made" />
        <StatCard label={t('carrier.won')} stat={o.won} kind="count" testId="stat-won" />
        <StatCard label={t('carrier.lost')} stat={o.lost} kind="count" testId="stat-lost" />
        <StatCard label={t('carrier.revenue')} stat={o.revenueSar} kind="sar" testId="stat-revenue" />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ChartCard
          title={t('carrier.revenueTrend')}
          testId="revenue-trend"
          empty={points.every((p) => p.revenue === 0)}
          table={{
            columns: [t(rev.granularity === 'day' ? 'col.day' : 'col.month'), t('col.loads'), t('col.revenue')],
            rows: points.map((p) => [p.bucket, num(p.loads, lang), sar(p.revenue, lang)]),
          }}
        >
          <AreaChart
            h={220}
            data={points}
            dataKey="bucket"
            series={[{ name: 'revenue', label: t('col.revenue'), color: 'teal.6' }]}
            curveType="monotone"
            valueFormatter={(v) => sar(v, lang)}
            xAxisProps={xMirror}
            yAxisProps={yMirror}
          />
        </ChartCard>
        <ChartCard
          title={t('carrier.winLost')}
          testId="win-lost"
          empty={o.won.value + o.lost.value === 0}
          table={{ columns: [t('col.outcome'), t('col.loads')], rows: winLost.map((w) => [w.name, num(w.value, lang)]) }}
        >
          <Group justify="center" gap="lg" wrap="wrap">
            <DonutChart
              data={winLost}
              withLabelsLine={false}
              valueFormatter={(v) => num(v, lang)}
              chartLabel={o.winRatePct === null ? '' : pctText(o.winRatePct, lang)}
            />
            <Text size="sm" c="dimmed">
              {t('carrier.winRate', { pct: o.winRatePct === null ? '—' : pctText(o.winRatePct, lang) })}
            </Text>
          </Group>
        </ChartCard>
        <ChartCard
          title={t('carrier.popularRoutes')}
          testId="popular-routes"
          empty={popular.length === 0}
          table={{
            columns: [t('col.lane'), t('col.loads'), t('col.revenue')],
            rows: c.popularRoutes.map((l) => [laneName(l, lang), num(l.loads, lang), sar(l.valueSar, lang)]),
          }}
        >
          <BarChart
            h={Math.max(180, popular.length * 36)}
            data={popular}
            dataKey="lane"
            orientation="vertical"
            series={[{ name: 'loads', label: t('col.loads'), color: 'blue.6' }]}
            valueFormatter={(v) => num(v, lang)}
            xAxisProps={{ ...xMirror, allowDecimals: false, tickFormatter: (v: number) => num(v, lang) }}
            yAxisProps={{ orientation: dir === 'rtl' ? 'right' : 'left', width: 140 }}
          />
        </ChartCard>
        <ChartCard
          title={t('carrier.rateTrend')}
          testId="rate-trend"
          empty={rates.length === 0}
          table={{ columns: [t('col.month'), t('col.perKm')], rows: rates.map((r) => [r.month, sar(r.own ?? 0, lang)]) }}
        >
          {/* The market's SAR/km per month joins as a second series from the rates module's
              GET /rates/lane/history (issue 20 lane rate index) once it is merged. */}
          <LineChart
            h={220}
            data={rates}
            dataKey="month"
            series={[{ name: 'own', label: t('carrier.ownRate'), color: 'violet.6' }]}
            valueFormatter={(v) => sar(v, lang)}
            xAxisProps={xMirror}
            yAxisProps={{ ...yMirror, tickFormatter: (v: number) => num(v, lang, 2) }}
            withLegend
          />
        </ChartCard>
      </SimpleGrid>
      <Paper withBorder p="md" radius="md" data-testid="top-lanes">
        <Title order={3} size="h5" mb="sm">
          {t('carrier.topLanes')}
        </Title>
        {top ? (
          <>
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" mb="md" aria-label={t('carrier.quickStats')}>
              {(
                [
                  [t('col.lane'), laneName(top, lang)],
                  [t('col.loads'), num(top.loads, lang)],
                  [t('col.avg'), sar(top.avgSar, lang)],
                  [t('col.perKm'), top.perKmSar === null ? '—' : sar(top.perKmSar, lang)],
                ] as const
              ).map(([k, v]) => (
                <div key={k}>
                  <Text size="xs" c="dimmed">
                    {k}
                  </Text>
                  <Text fw={600}>{v}</Text>
                </div>
              ))}
            </SimpleGrid>
            <TopLanes lanes={c.topLanes} lang={lang} />
          </>
        ) : (
          <Text c="dimmed" size="sm">
            {t('empty')}
          </Text>
        )}
      </Paper>
    </Stack>
  );
}

/** The top lane analysis: each lane's loads, revenue, average price and SAR/km. */
function TopLanes({ lanes, lang }: { lanes: DashboardLane[]; lang: Lang }) {
  const { t } = useTranslation('dashboard');
  const { dir } = useDirection();
  return (
    <ChartCard
      title={t('carrier.topLanesTable')}
      testId="top-lanes-analysis"
      empty={false}
      table={{
        columns: [t('col.lane'), t('col.loads'), t('col.revenue'), t('col.avg'), t('col.perKm')],
        rows: lanes.map((l) => [
          laneName(l, lang),
          num(l.loads, lang),
          sar(l.valueSar, lang),
          sar(l.avgSar, lang),
          l.perKmSar === null ? '—' : sar(l.perKmSar, lang),
        ]),
      }}
    >
      <BarChart
        h={Math.max(180, lanes.length * 36)}
        data={lanes.map((l) => ({ lane: laneName(l, lang), revenue: l.valueSar }))}
        dataKey="lane"
        orientation="vertical"
        series={[{ name: 'revenue', label: t('col.revenue'), color: 'teal.6' }]}
        valueFormatter={(v) => sar(v, lang)}
        xAxisProps={{ reversed: dir === 'rtl', tickFormatter: (v: number) => num(v, lang) }}
        yAxisProps={{ orientation: dir === 'rtl' ? 'right' : 'left', width: 140 }}
      />
    </ChartCard>
  );
}
