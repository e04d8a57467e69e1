import { useQuery, keepPreviousData } from '@tanstack/react-query';
import type { DashboardPeriod } from '@masar/shared';
import { masar, unwrap } from '../../../lib/api';

/**
 * Everything my dashboard shows for a period, in one call (GET /dashboard; issue 20, spec §2).
 * Keyed on the language too: lane names come in the reader's language. The previous period's
 * figures stay on screen while the next period loads.
 */
export function useDashboard(period: DashboardPeriod, lang: string) {
  return useQuery({
    queryKey: ['dashboard', period, lang],
    queryFn: () => unwrap(masar.GET('/api/v1/dashboard', { params: { query: { period } } })),
    placeholderData: keepPreviousData,
  });
}
