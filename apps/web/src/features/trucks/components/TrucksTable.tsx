import { useMemo, type ReactNode } from 'react';
import { Anchor, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconRosetteDiscountCheckFilled } from '@tabler/icons-react';
import { SortableHead } from '../../../components/SortableHead';
import { functionalUpdate, rowSortingFeature, tableFeatures, useTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import type { TRUCK_SORTS, Truck } from '@masar/shared';
import { asLang, cityName, formatDateCompact, formatMoney, formatNumber, formatPercent, type Lang } from '../../../components/format';
import { DirArrow } from '../../../components/Lane';
import { refName, useEquipmentTypes } from '../../../components/reference';
import { destinationsText } from './TruckCard';

/**
 * Which column head asks for which server sort (GET /searchTrucks `sort`, each one direction,
 * ascending): the table never reorders rows itself — the server sorts and pages.
 */
type TruckSort = (typeof TRUCK_SORTS)[number];
const SORT_OF_COLUMN: Record<string, TruckSort> = { lane: 'deadhead', available: 'date', rate: 'rate' };
const COLUMN_OF_SORT = Object.fromEntries(Object.entries(SORT_OF_COLUMN).map(([col, s]) => [s, col])) as Record<TruckSort, string>;
/** Amounts line up at their end (logical: the left edge in Arabic). */
const NUMERIC = new Set(['capacity', 'rate']);

const features = tableFeatures({ rowSortingFeature });
type TruckColumn = ColumnDef<typeof features, Truck>;

interface Props {
  trucks: Truck[];
  /** The sort in force (the server's). */
  sort: TruckSort;
  /** Deadhead is a sort only when the search has a pickup city. */
  canSortDeadhead: boolean;
  onSort: (sort: TruckSort) => void;
  /** Opens the truck's details (the page's drawer). */
  onOpen: (truck: Truck) => void;
  actionsOf?: (truck: Truck) => ReactNode;
}

/**
 * Search trucks as the results table (issue 23: the board's table, for capacity): reference (opens
 * the details), availability window, lane with deadhead, equipment, load type, capacity, minimum
 * rate, and the carrier with verification and its fact-based record — sortable by the heads that
 * map to a server sort (TanStack Table in manual sorting mode). Phones keep the truck cards.
 */
export function TrucksTable({ trucks, sort, canSortDeadhead, onSort, onOpen, actionsOf }: Props) {
  const { t, i18n } = useTranslation('trucks');
  const { t: tr } = useTranslation('record');
  const lang = asLang(i18n.language);
  const eq = useEquipmentTypes();

  const columns = useMemo<TruckColumn[]>(
    () => [
      {
        id: 'ref',
        header: t('table.col.ref'),
        enableSorting: false,
        cell: ({ row }) => (
          <Anchor
            component="button"
            type="button"
            fz="inherit"
            ff="monospace"
            onClick={() => onOpen(row.original)}
            aria-label={t('table.view', { ref: row.original.referenceId })}
            data-testid="truck-row-open"
          >
            {row.original.referenceId}
          </Anchor>
        ),
      },
      {
        id: 'available',
        header: t('table.col.available'),
        accessorFn: (x) => x.availableFrom,
        cell: ({ row }) => `${formatDateCompact(row.original.availableFrom, lang)} – ${formatDateCompact(row.original.availableTo, lang)}`,
      },
      {
        id: 'lane',
        header: t('table.col.lane'),
        accessorFn: (x) => x.deadheadKm ?? null,
        enableSorting: canSortDeadhead,
        cell: ({ row }) => <Lane truck={row.original} lang={lang} anywhere={t('card.anywhere')} deadhead={row.original.deadheadKm} />,
      },
      { id: 'equipment', header: t('field.equipment'), enableSorting: false, cell: ({ row }) => refName(eq.data, row.original.equipmentType, lang) },
      { id: 'loadType', header: t('table.col.loadType'), enableSorting: false, cell: ({ row }) => t(`card.loadType.${row.original.loadType}`) },
      {
        id: 'capacity',
        header: t('table.col.capacity'),
        enableSorting: false,
        cell: ({ row }) => t('card.capacity', { value: formatNumber(row.original.capacityKg, lang) }),
      },
      {
        id: 'rate',
        header: t('table.col.rate'),
        accessorFn: (x) => Number(x.minRateSar),
        cell: ({ row }) =>
          t(row.original.rateBasis === 'km' ? 'table.rateKm' : 'table.rateTrip', {
            value: formatMoney(row.original.minRateSar, lang, row.original.rateBasis === 'km' ? { decimals: 2 } : undefined),
          }),
      },
      {
        id: 'carrier',
        header: t('card.company'),
        enableSorting: false,
        cell: ({ row }) => {
          const x = row.original;
          const c = x.record?.asCarrier;
          return (
            <div>
              <Group gap={4} wrap="nowrap">
                <Text component="span" fz="inherit" truncate="end" maw={200} title={x.company} dir="auto">
                  {x.company}
                </Text>
                {x.verified && (
                  <Tooltip label={t('card.verified')}>
                    <IconRosetteDiscountCheckFilled size={14} color="var(--mantine-primary-color-filled)" aria-label={t('card.verified')} role="img" />
                  </Tooltip>
                )}
              </Group>
              {x.record && !x.isMine && (
                <Text fz="xs" c="dimmed" data-testid="truck-row-record">
                  {c
                    ? `${tr('completed', { count: c.completed, n: formatNumber(c.completed, lang) })} · ${tr('onTimeDelivery', {
                        value: c.onTimeDeliveryPct === null ? tr('none') : formatPercent(c.onTimeDeliveryPct / 100, lang),
                      })}`
                    : tr('new')}
                </Text>
              )}
            </div>
          );
        },
      },
      ...(actionsOf
        ? [{ id: 'actions', header: t('table.col.actions'), enableSorting: false, cell: ({ row }) => actionsOf(row.original) } satisfies TruckColumn]
        : []),
    ],
    [t, tr, lang, eq.data, canSortDeadhead, onOpen, actionsOf],
  );

  const sorting: SortingState = [{ id: COLUMN_OF_SORT[sort], desc: false }];
  const table = useTable({
    features,
    columns,
    data: trucks,
    getRowId: (x) => x.id,
    state: { sorting },
    manualSorting: true,
    enableSortingRemoval: false,
    enableMultiSort: false,
    // every server sort is ascending: a head asks for its sort, never the other direction
    sortDescFirst: false,
    onSortingChange: (updater) => {
      const next = functionalUpdate(updater, sorting)[0];
      const s = next ? SORT_OF_COLUMN[next.id] : undefined;
      if (s && s !== sort) onSort(s);
    },
  });

  return (
    <Table.ScrollContainer minWidth={1100} type="native" pos="relative">
      <Table highlightOnHover verticalSpacing="xs" fz="sm" tabularNums aria-label={t('table.caption')} data-testid="trucks-table">
        <Table.Thead>
          {table.getHeaderGroups().map((hg) => (
            <Table.Tr key={hg.id}>
              {hg.headers.map((h) => (
                <SortableHead
                  key={h.id}
                  id={h.column.id}
                  label={<table.FlexRender header={h} />}
                  dir={h.column.getIsSorted()}
                  onSort={h.column.getCanSort() ? h.column.getToggleSortingHandler() : undefined}
                  numeric={NUMERIC.has(h.column.id)}
                  hidden={h.column.id === 'actions'}
                  testIdPrefix="truck-"
                />
              ))}
            </Table.Tr>
          ))}
        </Table.Thead>
        <Table.Tbody>
          {table.getRowModel().rows.map((row) => (
            <Table.Tr key={row.id} data-testid={`truck-row-${row.original.referenceId}`} data-truck-id={row.original.id}>
              {row.getAllCells().map((cell) => (
                <Table.Td
                  key={cell.id}
                  style={{
                    whiteSpace: cell.column.id === 'lane' || cell.column.id === 'carrier' ? undefined : 'nowrap',
                    verticalAlign: 'top',
                    textAlign: NUMERIC.has(cell.column.id) ? 'end' : undefined,
                  }}
                >
                  <table.FlexRender cell={cell} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Origin → destinations (or Anywhere), and the deadhead from my pickup city under it. */
function Lane({ truck, lang, anywhere, deadhead }: { truck: Truck; lang: Lang; anywhere: string; deadhead: number | undefined }) {
  const { t } = useTranslation('trucks');
  return (
    <div>
      <Group gap={4} wrap="wrap" fw={600} style={{ rowGap: 0 }}>
        <span>{cityName(truck.origin, lang)}</span>
        <DirArrow size={14} />
        <span>{destinationsText(truck, lang, anywhere)}</span>
      </Group>
      {deadhead !== undefined && (
        <Text fz="xs" c="dimmed">
          {t('card.deadhead', { value: formatNumber(deadhead, lang, 1) })}
        </Text>
      )}
    </div>
  );
}
