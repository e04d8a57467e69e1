import type { ReactNode } from 'react';
import { SimpleGrid, Stack } from '@mantine/core';
import type { Load } from '@masar/shared';
import { LoadCard, type DisplayMode } from '../../../components/LoadCard';

/** Loads as cards (grid) or rows (line). */
export function LoadList({
  loads,
  mode,
  hrefOf,
  showStatus,
  actionsOf,
}: {
  loads: Load[];
  mode: DisplayMode;
  hrefOf: (l: Load) => string;
  showStatus?: boolean;
  actionsOf?: (l: Load) => ReactNode;
}) {
  const cards = loads.map((l) => <LoadCard key={l.id} load={l} mode={mode} href={hrefOf(l)} showStatus={showStatus} actions={actionsOf?.(l)} />);
  return mode === 'grid' ? <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>{cards}</SimpleGrid> : <Stack gap="xs">{cards}</Stack>;
}
