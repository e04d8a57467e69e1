import { startTransition, useEffect, useMemo, useState, type MouseEvent, type ReactNode } from 'react';
import { Anchor, Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconRosetteDiscountCheckFilled } from '@tabler/icons-react';
import { SortableHead } from '../../../components/SortableHead';
import { functionalUpdate, rowSortingFeature, tableFeatures, useTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { Link, useNavigate } from 'react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { loadPriceOf, type Load } from '@masar/shared';
import { asLang, formatDateCompact, formatMoney, formatNumber, type Lang } from '../../../components/format';
import { HoverTooltip } from '../../../components/HoverTooltip';
import { DirArrow, laneOf } from '../../../components/Lane';
import { StatusBadge } from '../../../components/LoadStatusBadge';
import { refName, useEquipmentTypes } from '../../../components/reference';
import type { Density, SearchFilters } from '../utils/searchParams';

/** The board's sorts (GET /loads `sort`); each is one direction on the server (board.repository.ts SORTS). */
export type BoardSort = SearchFilters['sort'];

/**
 * Which column head sorts by which server sort, and in which direction the server orders it:
 * a head only asks the server (keyset paging stays correct); the table never reorders rows itself.
 */
const SORT_OF_COLUMN: Record<string, { sort: BoardSort; desc: boolean }> = {
  age: { sort: 'newest', desc: true },
  pickup: { sort: 'pickup', desc: false },
  lane: { sort: 'deadhead', desc: false },
  price: { sort: 'price', desc: true },
  ratePerKm: { sort: 'ratePerKm', desc: true },
};
const COLUMN_OF_SORT = Object.fromEntries(Object.entries(SORT_OF_COLUMN).map(([col, s]) => [s.sort, col])) as Record<BoardSort, string>;

/** Amounts line up at their end (logical: the left edge in Arabic). */
const NUMERIC = new Set(['distance', 'weight', 'price', 'ratePerKm']);

/** TanStack Table v9: only the sorting feature, in manual mode (the server sorts). */
const features = tableFeatures({ rowSortingFeature });
type LoadColumn = ColumnDef<typeof features, Load>;

/** The row links (BoardShortcuts moves between them with J / K). */
export const ROW_LINK_CLASS = 'masar-row-link';

/** Age of a post: "5 min ago", "3 h ago", "2 d ago" (plurals of `shipments:table.age*`). */
export function ageOf(postedAt: string | null, now: number, t: TFunction<'shipments'>) {
  if (!postedAt) return '';
  const min = Math.max(0, Math.floor((now - Date.parse(postedAt)) / 60_000));
  if (min < 1) return t('table.ageNow');
  if (min < 60) return t('table.ageMinutes', { count: min });
  if (min < 24 * 60) return t('table.ageHours', { count: Math.floor(min / 60) });
  return t('table.ageDays', { count: Math.floor(min / (24 * 60)) });
}

interface Props {
  loads: Load[];
  hrefOf: (l: Load) => string;
  /** The sort in force (the server's); with `onSort` absent (My Shipments) no head sorts. */
  sort?: BoardSort;
  /** Deadhead is a sort only when the search has a pickup city. */
  canSortDeadhead?: boolean;
  onSort?: (sort: BoardSort) => void;
  /** A status column after the reference (My Shipments: posted, assigned, completed …). */
  showStatus?: boolean;
  density: Density;
  /** Phones (≤ 768 px): cards instead of the table. */
  cards?: boolean;
  actionsOf?: (l: Load) => ReactNode;
  /** The load under the pointer or keyboard focus (null: none), for the map beside the table. */
  onHover?: (id: string | null) => void;
  /** For the age column; tests pass a fixed time. */
  now?: number;
}

/**
 * The class list Mantine's Table.Td gives a cell of this table (no column borders). Cells are
 * plain `<td>`s: 12 Table.Td components per row were a tenth of the load search's first render
 * (issue 23); LoadSearchPage.table.test.tsx holds the two to the same classes.
 */
export const TD_CLASS = `${Table.classes.td} mantine-Table-td`;

/** The shortest row of each layout, in px (compact rows are 26–27 px, comfortable 64, cards about 100). */
const MIN_ROW_PX = { compact: 24, comfortable: 56, cards: 80 } as const;

/**
 * How many rows the table's first commit renders: as many as the screen can show, the rest in a
 * second, interruptible render after that commit has been painted. The first rows of a search are
 * what a dispatcher waits for (issue 23: painted within 1.0 s), and rows below the fold cost as much
 * to render as those above it. Later result sets (paging, sorting) render whole.
 *
 * @param total rows in the result set
 * @param layout which row layout is shown (sets the shortest row height)
 * @returns the number of rows to render now
 */
function useRowsShown(total: number, layout: keyof typeof MIN_ROW_PX): number {
  const [all, setAll] = useState(false);
  useEffect(() => {
    let live = true;
    // the frame after this commit, then the next task: that frame has been painted
    const frame = requestAnimationFrame(() => setTimeout(() => live && startTransition(() => setAll(true)), 0));
    return () => {
      live = false;
      cancelAnimationFrame(frame);
    };
  }, []);
  return all ? total : Math.min(total, Math.ceil(window.innerHeight / MIN_ROW_PX[layout]));
}

/** Clicks on these inside a row are theirs, not the row's. */
const INTERACTIVE = 'a, button, input, select, textarea, [role="button"], [role="menuitem"]';

/**
 * The results table of the load board (issue 23): aligned columns — reference (the row's link),
 * age of post, pickup date and window, lane with deadhead, distance, equipment, load type, weight,
 * price, rate per km, shipper with verification and days-to-pay — sortable by the heads that map
 * to a server sort (TanStack Table in manual sorting mode: a head asks the server, which sorts and
 * pages by keyset). Comfortable or compact rows; on phones, compact cards.
 * Each row's reference is a real link (click, Enter, middle-click); a click elsewhere on the row
 * follows it too.
 */
export function LoadsTable({ loads, hrefOf, sort, canSortDeadhead = false, onSort, showStatus, density, cards, actionsOf, onHover, now: fixedNow }: Props) {
  const { t, i18n } = useTranslation('shipments');
  const { t: tl } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const eq = useEquipmentTypes();
  const navigate = useNavigate();
  const compact = density === 'compact';
  // ages are as of when these results arrived (the columns stay stable between renders)
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const now = useMemo(() => fixedNow ?? Date.now(), [loads, fixedNow]);

  // sortable columns carry an accessor (TanStack sorts only those); the values are never sorted
  // here (manualSorting): a head only asks the server for its sort
  const columns = useMemo<LoadColumn[]>(
    () => [
      {
        id: 'ref',
        header: t('table.col.ref'),
        enableSorting: false,
        cell: ({ row }) => <RowLink load={row.original} href={hrefOf(row.original)} lang={lang} />,
      },
      ...(showStatus
        ? [
            {
              id: 'status',
              header: t('table.col.status'),
              enableSorting: false,
              cell: ({ row }) => <StatusBadge status={row.original.status} />,
            } satisfies LoadColumn,
          ]
        : []),
      { id: 'age', header: t('table.col.age'), accessorFn: (l) => l.postedAt, sortDescFirst: true, cell: ({ row }) => ageOf(row.original.postedAt, now, t) },
      {
        id: 'pickup',
        header: t('table.col.pickup'),
        accessorFn: (l) => l.pickupAt,
        cell: ({ row }) => <Pickup load={row.original} lang={lang} compact={compact} />,
      },
      {
        id: 'lane',
        header: t('table.col.lane'),
        accessorFn: (l) => l.deadheadKm ?? null,
        enableSorting: canSortDeadhead,
        cell: ({ row }) => <LaneCell load={row.original} lang={lang} inline={compact} nowrap={compact} />,
      },
      {
        id: 'distance',
        header: t('table.col.distance'),
        enableSorting: false,
        cell: ({ row }) => tl('unit.km', { value: formatNumber(row.original.distanceKm, lang) }),
      },
      {
        id: 'equipment',
        header: t('table.col.equipment'),
        enableSorting: false,
        cell: ({ row }) => <Clip text={refName(eq.data, row.original.equipmentType, lang)} max={compact ? 170 : 220} />,
      },
      { id: 'loadType', header: t('table.col.loadType'), enableSorting: false, cell: ({ row }) => tl(`loadType.${row.original.loadType}`) },
      {
        id: 'weight',
        header: t('table.col.weight'),
        enableSorting: false,
        cell: ({ row }) => tl('unit.kg', { value: formatNumber(row.original.totalWeightKg, lang) }),
      },
      {
        id: 'price',
        header: t('table.col.price'),
        accessorFn: (l) => Number(l.priceSar),
        sortDescFirst: true,
        cell: ({ row }) => <Price load={row.original} lang={lang} />,
      },
      {
        id: 'ratePerKm',
        header: t('table.col.ratePerKm'),
        accessorFn: (l) => Number(l.ratePerKmSar),
        sortDescFirst: true,
        cell: ({ row }) => formatMoney(loadPriceOf(row.original).ratePerKmSar, lang, { decimals: 2 }),
      },
      { id: 'shipper', header: t('table.col.shipper'), enableSorting: false, cell: ({ row }) => <Shipper load={row.original} compact={compact} /> },
      ...(actionsOf
        ? [{ id: 'actions', header: t('table.col.actions'), enableSorting: false, cell: ({ row }) => actionsOf(row.original) } satisfies LoadColumn]
        : []),
    ],
    [t, tl, lang, eq.data, hrefOf, now, compact, canSortDeadhead, actionsOf, showStatus],
  );

  const sorting: SortingState = sort && onSort ? [{ id: COLUMN_OF_SORT[sort], desc: SORT_OF_COLUMN[COLUMN_OF_SORT[sort]].desc }] : [];
  const table = useTable({
    features,
    columns,
    data: loads,
    getRowId: (l) => l.id,
    state: { sorting },
    manualSorting: true,
    enableSorting: !!onSort,
    enableSortingRemoval: false,
    enableMultiSort: false,
    onSortingChange: (updater) => {
      const next = functionalUpdate(updater, sorting)[0];
      const s = next ? SORT_OF_COLUMN[next.id] : undefined;
      if (s && s.sort !== sort) onSort?.(s.sort);
    },
  });

  const shown = useRowsShown(loads.length, cards ? 'cards' : density);
  const rows = table.getRowModel().rows.slice(0, shown);

  const open = (e: MouseEvent, href: string) => {
    if (e.defaultPrevented || (e.target as Element).closest(INTERACTIVE) || window.getSelection()?.toString()) return;
    void navigate(href);
  };

  if (cards)
    return (
      <Stack gap={6} data-testid="loads-cards">
        {rows.map((row, i) => (
          <MobileCard
            key={row.id}
            load={row.original}
            href={hrefOf(row.original)}
            lang={lang}
            now={now}
            first={i === 0}
            actions={actionsOf?.(row.original)}
            showStatus={showStatus}
          />
        ))}
      </Stack>
    );

  return (
    // positioned, so that the visually hidden head of the actions column (position: absolute) stays
    // inside the scroll container instead of widening the page
    <Table.ScrollContainer minWidth={compact ? 1100 : 1200} type="native" pos="relative">
      <Table
        highlightOnHover
        verticalSpacing={compact ? 3 : 'xs'}
        horizontalSpacing={compact ? 6 : 'sm'}
        fz={compact ? 'xs' : 'sm'}
        tabularNums
        aria-label={t('table.caption')}
        data-testid="loads-table"
        data-density={density}
      >
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
                />
              ))}
            </Table.Tr>
          ))}
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, i) => {
            const href = hrefOf(row.original);
            return (
              <Table.Tr
                key={row.id}
                data-testid={`load-row-${row.original.referenceId}`}
                data-load-id={row.original.id}
                // bench:lcp watches the first result row's paint
                {...(i === 0 ? { elementtiming: 'first-load-row' } : {})}
                onClick={(e) => open(e, href)}
                onMouseEnter={() => onHover?.(row.original.id)}
                onMouseLeave={() => onHover?.(null)}
                onFocus={() => onHover?.(row.original.id)}
                style={{ cursor: 'pointer' }}
              >
                {row.getAllCells().map((cell) => (
                  <td
                    key={cell.id}
                    className={TD_CLASS}
                    style={{
                      whiteSpace: compact || cell.column.id !== 'lane' ? 'nowrap' : undefined,
                      verticalAlign: 'top',
                      textAlign: NUMERIC.has(cell.column.id) ? 'end' : undefined,
                    }}
                  >
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/*
 * The cells below are plain elements styled by global.css (masar-cell-*): Mantine's Text and Group
 * cost a theme lookup and a style resolution each, several times per row, on the render that
 * paints the first rows (issue 23). The cards for phones keep Mantine's components.
 */

/** A long name cut with an ellipsis at `max` px (the whole name in its title), so that the columns fit the screen. */
function Clip({ text, max }: { text: string; max: number }) {
  return (
    <span className="masar-cell-clip" title={text} style={{ maxInlineSize: `calc(${max / 16}rem * var(--mantine-scale))` }}>
      {text}
    </span>
  );
}

/** "View LD-000123, Riyadh → Jeddah": the link's name says what it opens. */
function viewLabel(load: Load, lang: Lang, t: TFunction<'loads'>) {
  const names = laneOf(load);
  return t('action.viewLoad', { ref: load.referenceId, from: lang === 'ar' ? names.fromAr : names.fromEn, to: lang === 'ar' ? names.toAr : names.toEn });
}

function RowLink({ load, href, lang }: { load: Load; href: string; lang: Lang }) {
  const { t } = useTranslation('loads');
  return (
    <Anchor component={Link} to={href} fz="inherit" ff="monospace" className={ROW_LINK_CLASS} aria-label={viewLabel(load, lang, t)}>
      {load.referenceId}
    </Anchor>
  );
}

function Pickup({ load, lang, compact }: { load: Load; lang: Lang; compact: boolean }) {
  const { t } = useTranslation('shipments');
  const until = load.pickupLatest && load.pickupLatest !== load.pickupAt ? t('table.pickupUntil', { date: formatDateCompact(load.pickupLatest, lang) }) : null;
  return (
    <span title={until ?? undefined}>
      {formatDateCompact(load.pickupAt, lang)}
      {until && !compact && <div className="masar-cell-note">{until}</div>}
    </span>
  );
}

/** The lane (first pickup → last drop) and, in a search from a pickup city, the deadhead: on a second line or `inline`. */
function LaneCell({ load, lang, inline, nowrap }: { load: Load; lang: Lang; inline: boolean; nowrap: boolean }) {
  const { t } = useTranslation('shipments');
  const { t: tl } = useTranslation('loads');
  const names = laneOf(load);
  const extra = Math.max(0, load.stops.length - 2);
  const deadhead = load.deadheadKm !== undefined ? t('table.deadhead', { km: tl('unit.km', { value: formatNumber(load.deadheadKm, lang, 1) }) }) : null;
  return (
    <div>
      <div className="masar-cell-line masar-cell-lane" data-nowrap={nowrap || undefined}>
        <span>{lang === 'ar' ? names.fromAr : names.fromEn}</span>
        <DirArrow size={14} />
        <span>{lang === 'ar' ? names.toAr : names.toEn}</span>
        {extra > 0 && (
          <Badge variant="light" color="gray" size="xs">
            {tl('stop.more', { count: extra })}
          </Badge>
        )}
        {deadhead && inline && (
          <span className="masar-cell-dimmed" style={{ fontWeight: 400 }} data-testid="deadhead">
            · {deadhead}
          </span>
        )}
      </div>
      {deadhead && !inline && (
        <div className="masar-cell-note" data-testid="deadhead">
          {deadhead}
        </div>
      )}
    </div>
  );
}

function Price({ load, lang }: { load: Load; lang: Lang }) {
  const { t } = useTranslation('loads');
  const p = loadPriceOf(load);
  return (
    <span
      className="masar-cell-price"
      data-testid="load-card-price"
      aria-label={p.agreed ? `${t('field.agreedPrice')}: ${formatMoney(p.priceSar, lang)}` : undefined}
    >
      {formatMoney(p.priceSar, lang)}
    </span>
  );
}

function Shipper({ load, compact }: { load: Load; compact: boolean }) {
  const { t, i18n } = useTranslation('shipments');
  // what the shipper does (measured over its paid shipments) before what it states (its terms)
  const measured = load.shipperDaysToPay;
  const pays =
    measured != null
      ? t('table.paidAvg', { count: measured, days: formatNumber(measured, asLang(i18n.language), 1) })
      : load.paymentTermsDays == null
        ? t('table.daysToPayNone')
        : t('table.daysToPay', { count: load.paymentTermsDays });
  return (
    <div>
      <div className="masar-cell-line" data-nowrap>
        <Clip text={load.shipperCompany} max={compact ? 160 : 220} />
        {load.shipperVerified && (
          <HoverTooltip label={t('table.verified')}>
            <IconRosetteDiscountCheckFilled
              size={14}
              color="var(--mantine-primary-color-filled)"
              aria-label={t('table.verified')}
              role="img"
              data-testid="shipper-verified"
            />
          </HoverTooltip>
        )}
        {compact && <span className="masar-cell-dimmed">· {pays}</span>}
      </div>
      {!compact && <div className="masar-cell-note">{pays}</div>}
    </div>
  );
}

/**
 * A load on a phone (≤ 768 px): four short lines — reference (the card's link, stretched over the
 * card), age and price; the lane; date, equipment, weight, distance and rate; the shipper — so
 * that three or more fit on a 390 × 844 screen.
 */
function MobileCard({
  load,
  href,
  lang,
  now,
  first,
  actions,
  showStatus,
}: {
  load: Load;
  href: string;
  lang: Lang;
  now: number;
  first: boolean;
  actions?: ReactNode;
  showStatus?: boolean;
}) {
  const { t } = useTranslation('shipments');
  const { t: tl } = useTranslation('loads');
  const eq = useEquipmentTypes();
  const p = loadPriceOf(load);
  const dot = ' · ';
  return (
    <Paper
      withBorder
      p={8}
      pos="relative"
      data-testid={`load-row-${load.referenceId}`}
      data-load-id={load.id}
      {...(first ? { elementtiming: 'first-load-row' } : {})}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          <Anchor component={Link} to={href} fz="xs" ff="monospace" className={`masar-card-link ${ROW_LINK_CLASS}`} aria-label={viewLabel(load, lang, tl)}>
            {load.referenceId}
          </Anchor>
          {showStatus && <StatusBadge status={load.status} />}
          <Text fz="xs" c="dimmed" truncate>
            {ageOf(load.postedAt, now, t)}
          </Text>
        </Group>
        <Text fw={700} fz="sm" c="masar" data-testid="load-card-price">
          {formatMoney(p.priceSar, lang)}
        </Text>
      </Group>
      <LaneCell load={load} lang={lang} inline nowrap={false} />
      <Text fz="xs" c="dimmed" lineClamp={1}>
        {formatDateCompact(load.pickupAt, lang)}
        {dot}
        {refName(eq.data, load.equipmentType, lang)}
        {dot}
        {tl('unit.kg', { value: formatNumber(load.totalWeightKg, lang) })}
        {dot}
        {tl('unit.km', { value: formatNumber(load.distanceKm, lang) })}
        {dot}
        {tl('unit.perKm', { value: formatMoney(p.ratePerKmSar, lang, { decimals: 2 }) })}
      </Text>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text fz="xs" component="div" style={{ minWidth: 0 }}>
          <Shipper load={load} compact />
        </Text>
        {actions && <div className="masar-card-actions">{actions}</div>}
      </Group>
    </Paper>
  );
}
