import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { BayanTripStatus } from '@masar/shared';

const COLOR: Record<BayanTripStatus, string> = { pending: 'yellow', active: 'blue', closed: 'green', cancelled: 'gray' };

/** A Bayan trip's status (pending, active, closed, cancelled). */
export function BayanStatusBadge({ status }: { status: BayanTripStatus }) {
  const { t } = useTranslation('bayan');
  return (
    <Badge color={COLOR[status]} variant="light">
      {t(`status.${status}`)}
    </Badge>
  );
}
