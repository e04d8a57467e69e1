import { Text, type TextProps } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { masar, unwrap } from '../lib/api';
import { asLang, formatMoney, formatNumber, formatPercent } from './format';

/** The window of the hint, days (the "30-day spot average"). */
export const HINT_WINDOW_DAYS = 30;

/**
 * How a price compares with an average: 'at' within ±1 %, else 'above' / 'below' with the whole
 * percentage (rounded) of the difference.
 */
export function compareToAverage(price: number, average: number): { side: 'above' | 'below' | 'at'; pct: number } {
  const pct = Math.round((price / average - 1) * 100);
  if (Math.abs(pct) < 1) return { side: 'at', pct: 0 };
  return { side: pct > 0 ? 'above' : 'below', pct: Math.abs(pct) };
}

/**
 * "This price is 8 % above the spot average on this lane over 30 days (SAR 3,400)" beside a
 * price (post form, bid form, load details; issue 20). The lane's spot figure comes from GET
 * /rates/lane (30 days; the index may widen the window — the line then still names the window
 * asked). When the answer is not the lane's own (code LANE_NOT_ENOUGH_DATA: a wider geography) or
 * there is no figure, "Not enough data for this lane yet" (issue 46); nothing while the lane is
 * incomplete. With no price yet, the average alone.
 */
export function LaneRateHint({
  origin,
  destination,
  equipment,
  price,
  ...rest
}: {
  origin: number | null | undefined;
  destination: number | null | undefined;
  equipment?: string | null;
  price: number | string | null | undefined;
} & TextProps) {
  const { t, i18n } = useTranslation('rates');
  const lang = asLang(i18n.language);
  const ready = !!origin && !!destination && origin !== destination;
  const q = useQuery({
    queryKey: ['rates', 'hint', origin, destination, equipment ?? null],
    queryFn: ({ signal }) =>
      unwrap(
        masar.GET('/api/v1/rates/lane', {
          params: { query: { origin: origin!, destination: destination!, kind: 'spot', window: HINT_WINDOW_DAYS, ...(equipment ? { equipment } : {}) } },
          signal,
        }),
      ),
    enabled: ready,
    staleTime: 5 * 60_000,
  });
  const r = q.data;
  if (!ready || !r) return null;
  // the lane itself has not enough data: say so — never a region's or the country's average as the lane's (issue 46)
  if (!r.enough || !r.perTrip || r.code !== 'OK')
    return (
      <Text size="xs" c="dimmed" data-testid="lane-rate-hint" {...rest}>
        {t('laneNotEnough')}
      </Text>
    );
  const average = r.perTrip.average;
  const days = t('days', { count: HINT_WINDOW_DAYS, n: formatNumber(HINT_WINDOW_DAYS, lang) });
  const avg = formatMoney(Math.round(average), lang);
  const p = Number(price);
  const text =
    price !== null && price !== undefined && price !== '' && p > 0
      ? (() => {
          const c = compareToAverage(p, average);
          return t(`hint.${c.side}`, { pct: formatPercent(c.pct / 100, lang), days, average: avg });
        })()
      : t('hint.average', { days, average: avg });
  return (
    <Text size="xs" c="dimmed" data-testid="lane-rate-hint" {...rest}>
      {text}
    </Text>
  );
}
