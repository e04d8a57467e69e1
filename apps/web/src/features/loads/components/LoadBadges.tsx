import { Badge } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import type { Load } from '@masar/shared';
import { useTranslation } from 'react-i18next';
import { BookNowBadge } from './BookNow';

/** "Protected" / «محمي» on a protected load (issue 50): its price is held in escrow from booking. */
export function ProtectedBadge({ load }: { load: Pick<Load, 'paymentProtection'> }) {
  const { t } = useTranslation('loads');
  if (!load.paymentProtection) return null;
  return (
    <Badge color="masar" variant="light" leftSection={<IconShieldCheck size={12} />} data-testid="protected-badge">
      {t('protection.badge')}
    </Badge>
  );
}

/** A load's badges on the board and its page: Protected (issue 50), and Book Now while `bookNow` (posted). */
export function LoadBadges({ load, bookNow = true }: { load: Pick<Load, 'paymentProtection' | 'bookNow' | 'bookNowFor'>; bookNow?: boolean }) {
  return (
    <>
      <ProtectedBadge load={load} />
      {bookNow && <BookNowBadge load={load} />}
    </>
  );
}
