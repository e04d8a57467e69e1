import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table's header row: one column title each, then a last column over the row's buttons (`last`:
 * its content, e.g. a visually hidden "actions"; `null` for an empty cell; left out: no column).
 */
export function TableHead({ titles, last }: { titles: string[]; last?: ReactNode }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {titles.map((title, i) => (
          // a fixed list: the place is the column
          <Table.Th key={i}>{title}</Table.Th>
        ))}
        {last !== undefined && <Table.Th>{last}</Table.Th>}
      </Table.Tr>
    </Table.Thead>
  );
}
