import { Badge, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DAYS_TO_PAY_WINDOW } from '@masar/shared';
import { useTranslation } from 'react-i18next';
import { loadNamespaces } from '../../../i18n';
import { asLang, formatNumber } from '../../../components/format';
import { trackingApi } from '../api/trips';

/**
 * A shipper's average days-to-pay (delivery → payment received over its last 50 paid
 * shipments; issue 7 payment follow-through), for the load details page. Fetches its own
 * strings (page namespace 'trips') with the figure; renders nothing until both are there.
 */
export function DaysToPayBadge({ shipperId }: { shipperId: string }) {
  const { t, i18n } = useTranslation('trips');
  const q = useQuery({
    queryKey: ['days-to-pay', shipperId],
    queryFn: async () => (await Promise.all([trackingApi.daysToPay(shipperId), loadNamespaces(['trips'])]))[0],
    staleTime: 5 * 60_000,
  });
  if (!q.data) return null;
  const { averageDays, count } = q.data;
  return (
    <Tooltip label={t('pay.daysToPayTitle', { count: DAYS_TO_PAY_WINDOW })}>
      <Badge
        variant="light"
        color={averageDays === null ? 'gray' : averageDays <= 30 ? 'teal' : averageDays <= 60 ? 'yellow' : 'masarRed'}
        data-testid="days-to-pay"
        data-count={count}
        // a sentence, not a word: on a phone it wraps inside the badge instead of losing its end (issue 47)
        styles={{ root: { height: 'auto', maxWidth: '100%', paddingBlock: 2 }, label: { whiteSpace: 'normal', overflow: 'visible' } }}
      >
        {averageDays === null ? t('pay.daysToPayNone') : t('pay.daysToPay', { days: formatNumber(averageDays, asLang(i18n.language), 1) })}
      </Badge>
    </Tooltip>
  );
}

export default DaysToPayBadge;
