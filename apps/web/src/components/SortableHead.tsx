import type { ReactNode } from 'react';
import { Table, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';

/**
 * A results table's column head (issue 23; the load board's and search trucks' tables): a head
 * that maps to a server sort is a button with its direction arrow and `aria-sort`; the actions
 * head is visually hidden (still named for screen readers); amounts' heads line up at the end.
 * Test ids: `${testIdPrefix}col-${id}` on the cell, `${testIdPrefix}sort-${id}` on the button.
 */
export function SortableHead({
  id,
  label,
  dir,
  onSort,
  numeric,
  hidden,
  testIdPrefix = '',
}: {
  id: string;
  label: ReactNode;
  /** The head's sort in force, or false. */
  dir: false | 'asc' | 'desc';
  /** Present when the head sorts (TanStack's getToggleSortingHandler). */
  onSort?: (event: unknown) => void;
  numeric?: boolean;
  hidden?: boolean;
  testIdPrefix?: string;
}) {
  return (
    <Table.Th
      aria-sort={dir ? (dir === 'desc' ? 'descending' : 'ascending') : onSort ? 'none' : undefined}
      style={{ whiteSpace: 'nowrap', textAlign: numeric ? 'end' : undefined }}
      data-testid={`${testIdPrefix}col-${id}`}
    >
      {onSort ? (
        <UnstyledButton
          onClick={onSort}
          fz="inherit"
          fw={700}
          style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
          data-testid={`${testIdPrefix}sort-${id}`}
        >
          {label}
          {dir === 'desc' ? (
            <IconArrowDown size={14} aria-hidden />
          ) : dir === 'asc' ? (
            <IconArrowUp size={14} aria-hidden />
          ) : (
            <IconArrowsSort size={14} aria-hidden opacity={0.5} />
          )}
        </UnstyledButton>
      ) : hidden ? (
        <VisuallyHidden>{label}</VisuallyHidden>
      ) : (
        label
      )}
    </Table.Th>
  );
}
