import { Skeleton, Stack, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Skeleton line widths (% of the row): a heading, then lines of uneven length, as text looks. */
const WIDTHS = [45, 92, 78, 86, 64, 90, 72];

/**
 * What a page or panel shows while its data loads (issue 47: skeletons instead of a lone spinner):
 * `lines` grey lines in the shape of text, the first one a heading, announced once to screen
 * readers as "Loading…" / «جارٍ التحميل…» (or `label`) by a polite status region. The lines are
 * decorative (aria-hidden); widths are logical, so the ragged edge is on the reading side's end
 * in Arabic too.
 */
export function Loading({ lines = 4, label }: { lines?: number; label?: string }) {
  const { t } = useTranslation('common');
  return (
    <Stack gap="sm" w="100%" role="status" data-testid="loading">
      <VisuallyHidden>{label ?? t('a11y.loading')}</VisuallyHidden>
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} aria-hidden height={i === 0 ? 24 : 14} width={`${WIDTHS[i % WIDTHS.length]}%`} radius="sm" />
      ))}
    </Stack>
  );
}
