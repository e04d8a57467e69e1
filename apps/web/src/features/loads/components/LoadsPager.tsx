import { Button, Center, Group, Pagination } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface LoadsPagerProps {
  /** The list's total (capped at 1,000) and whether it is capped ("1,000+"). */
  total: number;
  totalCapped: boolean;
  pageSize: number;
  /** The numbered page shown (1-based); ignored while paging by cursor. */
  page: number;
  /** The cursor the current results were read after (null: a numbered page). */
  after: string | null;
  /** The API's nextCursor of the current results (null: nothing after them). */
  nextCursor: string | null;
  onPage: (page: number) => void;
  /** Show the results after `cursor` (null: back to the first numbered page). */
  onAfter: (cursor: string | null) => void;
}

/**
 * Paging of the load search and my loads (issue 10): numbered pages over the counted results
 * (the total stops at 1,000, so every numbered page stays within the API's skip cap), then —
 * on the last numbered page of a capped list — "More results", which continues by the keyset
 * cursor with "Next results" and "Back to the first page". Strings: `shipments:paging.*`
 * (the routes load that namespace).
 */
export function LoadsPager({ total, totalCapped, pageSize, page, after, nextCursor, onPage, onAfter }: LoadsPagerProps) {
  const { t } = useTranslation('shipments');
  const pages = Math.ceil(total / pageSize);
  if (after)
    return (
      <Group justify="center" mt="lg" data-testid="pager-cursor">
        <Button variant="default" onClick={() => onAfter(null)} data-testid="pager-first">
          {t('paging.first')}
        </Button>
        <Button variant="light" disabled={!nextCursor} onClick={() => nextCursor && onAfter(nextCursor)} data-testid="pager-next">
          {t('paging.next')}
        </Button>
      </Group>
    );
  if (pages <= 1 && !(totalCapped && nextCursor)) return null;
  return (
    <Center mt="lg">
      <Group gap="md">
        {pages > 1 && <Pagination total={pages} value={page} onChange={onPage} data-testid="search-pagination" />}
        {totalCapped && page >= pages && nextCursor && (
          <Button variant="light" onClick={() => onAfter(nextCursor)} data-testid="pager-more">
            {t('paging.more')}
          </Button>
        )}
      </Group>
    </Center>
  );
}
