import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, string> = {
  posted: 'masar',
  unposted: 'gray',
  unassigned: 'orange',
  assigned: 'blue',
  pending_bayan: 'yellow',
  completed: 'teal',
  cancelled: 'masarRed',
  expired: 'yellow',
  pending: 'yellow',
  accepted: 'masar',
  rejected: 'masarRed',
  closed: 'gray',
  withdrawn: 'gray',
};

/** Status of a load or an offer as a coloured badge (spec §4 statuses). */
export function StatusBadge({ status, kind = 'load' }: { status: string; kind?: 'load' | 'offer' }) {
  const { t } = useTranslation('loads');
  return (
    <Badge variant="light" color={COLORS[status] ?? 'gray'} data-testid={`status-${status}`}>
      {t(`${kind}Status.${status}`, { defaultValue: status })}
    </Badge>
  );
}
