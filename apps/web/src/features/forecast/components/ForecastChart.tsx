import { AreaChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { ScrollArea, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RateForecast } from '@masar/shared';
import { asLang, formatNumber, type Lang } from '../../../components/format';
import { digitSystem } from '../../../lib/digits';
import { dateTimeFormat } from '../../../lib/intl';

/** A Riyadh calendar day (YYYY-MM-DD) as "23 Nov" / "٢٣ نوفمبر" in the reader's digits. */
export function formatDay(day: string, lang: Lang, withYear = false) {
  return dateTimeFormat(lang === 'ar' ? 'ar-SA-u-ca-gregory' : 'en-GB', {
    timeZone: 'UTC',
    numberingSystem: digitSystem(lang),
    day: 'numeric',
    month: 'short',
    ...(withYear ? { year: 'numeric' } : {}),
  }).format(new Date(`${day}T00:00:00Z`));
}

/** One point of the chart: the day's actual average (history) or the forecast with its band. */
export interface ChartPoint {
  date: string;
  label: string;
  actual?: number;
  forecast?: number;
  band?: [number, number];
}

/**
 * The chart's points: the history's daily averages, then the next 8 days' forecast and band;
 * the forecast line starts at the last actual day so the two lines join.
 */
export function chartPoints(f: RateForecast, lang: Lang): ChartPoint[] {
  const pts: ChartPoint[] = f.history.map((h) => ({ date: h.date, label: formatDay(h.date, lang), actual: h.value }));
  const last = pts.at(-1);
  if (last && f.daily.length) {
    last.forecast = last.actual;
    last.band = [last.actual!, last.actual!];
  }
  for (const d of f.daily) pts.push({ date: d.date, label: formatDay(d.date, lang), forecast: d.value, band: [d.low, d.high] });
  return pts;
}

/**
 * History and forecast of a lane's rate (SAR per trip) with the prediction band (@mantine/charts
 * AreaChart on recharts; the band is a range area). RTL: the time axis runs right to left and
 * the value axis sits on the right. `view` 'table' shows the same points as a table (the
 * accessible view of the chart).
 */
export function ForecastChart({ forecast, view }: { forecast: RateForecast; view: 'chart' | 'table' }) {
  const { t, i18n } = useTranslation('forecast');
  const lang = asLang(i18n.language);
  const rtl = lang === 'ar';
  const points = chartPoints(forecast, lang);
  const sar = (v: number) => formatNumber(v, lang);

  if (view === 'table') {
    return (
      <ScrollArea h={360} type="auto" data-testid="forecast-table">
        <Table striped stickyHeader>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('table.date')}</Table.Th>
              <Table.Th>{t('table.actual')}</Table.Th>
              <Table.Th>{t('table.forecast')}</Table.Th>
              <Table.Th>{t('table.band')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...points].reverse().map((p) => (
              <Table.Tr key={p.date}>
                <Table.Td>{formatDay(p.date, lang, true)}</Table.Td>
                <Table.Td>{p.actual != null ? sar(p.actual) : '—'}</Table.Td>
                <Table.Td>{p.forecast != null && p.actual == null ? sar(p.forecast) : '—'}</Table.Td>
                <Table.Td>{p.band && p.actual == null ? t('table.range', { low: sar(p.band[0]), high: sar(p.band[1]) }) : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    );
  }

  return (
    <AreaChart
      h={320}
      data={points}
      dataKey="label"
      data-testid="forecast-chart"
      series={[
        { name: 'band', label: t('chart.band', { level: formatNumber(forecast.bandLevel * 100, lang) }), color: 'masar.3' },
        { name: 'actual', label: t('chart.actual'), color: 'gray.7' },
        { name: 'forecast', label: t('chart.forecast'), color: 'masar.8', strokeDasharray: '5 5' },
      ]}
      curveType="linear"
      connectNulls
      withDots={false}
      withLegend
      withGradient={false}
      areaProps={(s) => (s.name === 'band' ? { fillOpacity: 0.6, strokeOpacity: 0 } : { fillOpacity: 0 })}
      valueFormatter={(v) => (Array.isArray(v) ? t('table.range', { low: sar(v[0] as number), high: sar(v[1] as number) }) : sar(v))}
      xAxisProps={{ reversed: rtl, minTickGap: 24 }}
      yAxisProps={{ orientation: rtl ? 'right' : 'left', width: 70, domain: ['auto', 'auto'] }}
      tickLine="xy"
    />
  );
}
