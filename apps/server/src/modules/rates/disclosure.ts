import { RATE_MAX_COMPANY_SHARE, RATE_MIN_COMPANIES, RATE_MIN_RECORDS, type RateKind, type RateLevel, type RateWindow } from '@masar/shared';

/*
 * Disclosure control of every published rate figure (issue 46 "Disclosure control, as one rule in
 * one place"; docs/rates.md "Disclosure control"). A figure is a set of rate records; it may be
 * published only when
 *   1. the set passes the minimum-sample rule (`passesRule`: ≥ 7 records, ≥ 3 companies, no company
 *      over 40 %), and
 *   2. for every other figure a reader can obtain that overlaps it (other windows, geography levels,
 *      the lane with and without an equipment filter, the month and week points of the history,
 *      last week's publication), the records by which the two differ (the symmetric difference) are
 *      none or pass the same rule — complementary suppression: of two figures that conflict, the
 *      one with more records is suppressed (last week's publication always stands).
 * Figures are computed over fixed publication windows: whole Sunday–Saturday weeks (Riyadh) ending
 * with the last complete week (`publicationEnd`), so an answer stays the same all week and moves
 * by whole weeks. The grid is read by disclosure.repository.ts (readGrid). The lane, history and
 * forecast use cases ask `disclosureOf` and publish only what
 * it allows.
 */

/**
 * The minimum-sample rule (issue 20; issue 46): at least RATE_MIN_RECORDS (7) records from at
 * least RATE_MIN_COMPANIES (3) companies, and no company over RATE_MAX_COMPANY_SHARE (40 %) of
 * them — 40 % counted in whole records, rounded to the nearest (docs/rates.md "Minimum sample"):
 * 3 of 7 or 8 passes, 4 of 8 does not.
 */
export function passesRule(records: number, companies: number, topCompanyRecords: number): boolean {
  return records >= RATE_MIN_RECORDS && companies >= RATE_MIN_COMPANIES && topCompanyRecords <= Math.round(RATE_MAX_COMPANY_SHARE * records);
}

/** Records per company of a set of records. */
export type CompanyCounts = Map<string, number>;

/** passesRule of a set given as records per company. */
export function setPasses(c: CompanyCounts): boolean {
  let records = 0;
  let companies = 0;
  let top = 0;
  for (const n of c.values())
    if (n > 0) {
      records += n;
      companies++;
      top = Math.max(top, n);
    }
  return passesRule(records, companies, top);
}

const total = (c: CompanyCounts) => {
  let n = 0;
  for (const v of c.values()) n += v;
  return n;
};

// ---------------------------------------------------------------------------------------------
// Publication weeks

const DAY_MS = 86_400_000;
export const shift = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** Whole weeks of each window (the nominal days: 7 → 1 week, 15 → 2, 30 → 4, 60 → 9, 90 → 13, 365 → 52). */
export const WINDOW_WEEKS: Record<RateWindow, number> = { 7: 1, 15: 2, 30: 4, 60: 9, 90: 13, 365: 52 };

/**
 * The last day of the last complete publication week before `today` (YYYY-MM-DD, Riyadh): the
 * latest Saturday strictly before today (weeks run Sunday–Saturday, the Saudi working week first).
 */
export function publicationEnd(today: string): string {
  const dow = new Date(`${today}T00:00:00Z`).getUTCDay(); // 0 Sunday … 6 Saturday
  return shift(today, -(dow + 1));
}

/** The days a window covers: `weeks` whole weeks ending on `end` (publicationEnd). */
export function windowPeriod(end: string, weeks: number): { from: string; to: string } {
  return { from: shift(end, -(7 * weeks - 1)), to: end };
}

// ---------------------------------------------------------------------------------------------
// The grid: records per company of every cell a reader can reach around a lane, per segment

/**
 * A cell: one geography level's place pair × an equipment ('*' = every equipment). City keys carry
 * their region, so that nested cells can be intersected.
 */
export interface Cell {
  level: RateLevel;
  originKey: number;
  destinationKey: number;
  /** The region of each end (the key itself at region level; 0 at national). */
  originRegion: number;
  destinationRegion: number;
  equipment: string;
}
export const cellId = (c: Pick<Cell, 'level' | 'originKey' | 'destinationKey' | 'equipment'>) => `${c.level}|${c.originKey}|${c.destinationKey}|${c.equipment}`;

/** A segment: the days of one publication week (0 = the last complete week) within one calendar month. */
type SegmentId = string;
export const segmentId = (week: number, month: string): SegmentId => `${week}|${month}`;

/** Which segments a figure covers. */
export interface SegmentSet {
  id: string;
  has(week: number, month: string): boolean;
}
export const segments = {
  /** `weeks` weeks ending `ago` weeks before the last complete week (ago 1: last week's publication). */
  window: (weeks: number, ago = 0): SegmentSet => ({ id: `w${weeks}-${ago}`, has: (w) => w >= ago && w < weeks + ago }),
  /** A calendar month cut at the publication end (`ago` 1: as it was published last week). */
  month: (month: string, ago = 0): SegmentSet => ({ id: `m${month}-${ago}`, has: (w, m) => m === month && w >= ago }),
  /** One publication week. */
  week: (week: number): SegmentSet => ({ id: `k${week}`, has: (w) => w === week }),
};
const both = (a: SegmentSet, b: SegmentSet): SegmentSet => ({ id: `${a.id}&${b.id}`, has: (w, m) => a.has(w, m) && b.has(w, m) });

/** A figure: a cell over a set of segments. */
export interface Figure {
  cell: Cell;
  segments: SegmentSet;
}

/** The lane a disclosure grid is read around (cities with their regions). */
export interface GridLane {
  originCityId: number;
  originRegionId: number;
  destinationCityId: number;
  destinationRegionId: number;
  /** The equipment asked ('*': none). */
  equipment: string;
  kind: RateKind;
}

export interface DisclosureGrid {
  lane: GridLane;
  end: string;
  cells: Map<string, { cell: Cell; counts: Map<SegmentId, CompanyCounts> }>;
}

/** The lane's own cell at a level (the asked equipment, or '*' with `all`). */
export function laneCell(lane: GridLane, level: RateLevel, equipment = lane.equipment): Cell {
  const o = level === 'city_city' || level === 'city_region' ? lane.originCityId : level === 'national' ? 0 : lane.originRegionId;
  const d = level === 'city_city' || level === 'region_city' ? lane.destinationCityId : level === 'national' ? 0 : lane.destinationRegionId;
  return {
    level,
    originKey: o,
    destinationKey: d,
    originRegion: level === 'national' ? 0 : lane.originRegionId,
    destinationRegion: level === 'national' ? 0 : lane.destinationRegionId,
    equipment,
  };
}

const fineOrigin = (l: RateLevel) => l === 'city_city' || l === 'city_region';
const fineDestination = (l: RateLevel) => l === 'city_city' || l === 'region_city';

/** The cell holding exactly the records two cells share, or null when they share none. */
function meet(a: Cell, b: Cell): Cell | null {
  const equipment = a.equipment === b.equipment ? a.equipment : a.equipment === '*' ? b.equipment : b.equipment === '*' ? a.equipment : null;
  if (equipment === null) return null;
  if (a.level === 'national') return { ...b, equipment };
  if (b.level === 'national') return { ...a, equipment };
  const end = (aKey: number, aFine: boolean, aRegion: number, bKey: number, bFine: boolean, bRegion: number) => {
    if (aRegion !== bRegion) return null;
    if (aFine && bFine) return aKey === bKey ? { key: aKey, fine: true } : null;
    if (aFine) return { key: aKey, fine: true };
    if (bFine) return { key: bKey, fine: true };
    return { key: aKey, fine: false };
  };
  const o = end(a.originKey, fineOrigin(a.level), a.originRegion, b.originKey, fineOrigin(b.level), b.originRegion);
  const d = end(a.destinationKey, fineDestination(a.level), a.destinationRegion, b.destinationKey, fineDestination(b.level), b.destinationRegion);
  if (!o || !d) return null;
  const level: RateLevel = o.fine ? (d.fine ? 'city_city' : 'city_region') : d.fine ? 'region_city' : 'region_region';
  return { level, originKey: o.key, destinationKey: d.key, originRegion: a.originRegion, destinationRegion: a.destinationRegion, equipment };
}

/**
 * The disclosure decisions around one lane: `allows(figure)` says whether a figure of the grid may
 * be published (rule 1 and rule 2 above, against every figure `obtainable` lists); `counts` gives a
 * figure's records per company.
 */
export function disclosureOf(grid: DisclosureGrid, opts: { historyMonths?: string[]; historyWeeks?: number } = {}) {
  const memo = new Map<string, CompanyCounts>();
  const countsOf = (cell: Cell, s: SegmentSet): CompanyCounts => {
    const key = `${cellId(cell)}#${s.id}`;
    let c = memo.get(key);
    if (c) return c;
    c = new Map();
    const e = grid.cells.get(cellId(cell));
    if (e)
      for (const [seg, counts] of e.counts) {
        const [w, m] = seg.split('|');
        if (!s.has(Number(w), m)) continue;
        for (const [company, n] of counts) c.set(company, (c.get(company) ?? 0) + n);
      }
    memo.set(key, c);
    return c;
  };

  // every figure a reader can obtain: each cell's windows now and last week; the lane's history
  // (months now and as published last week) and weeks, with and without the equipment filter
  const obtainable: Figure[] = [];
  const windows = Object.values(WINDOW_WEEKS);
  for (const { cell } of grid.cells.values()) for (const w of windows) for (const ago of [0, 1]) obtainable.push({ cell, segments: segments.window(w, ago) });
  const laneCells = [...new Set([grid.lane.equipment, '*'])].map((e) => laneCell(grid.lane, 'city_city', e));
  for (const cell of laneCells) {
    for (const m of opts.historyMonths ?? []) for (const ago of [0, 1]) obtainable.push({ cell, segments: segments.month(m, ago) });
    for (let k = 0; k < (opts.historyWeeks ?? 0); k++) obtainable.push({ cell, segments: segments.week(k) });
  }
  const passes = new Map<string, boolean>();
  const passesOf = (f: Figure) => {
    const key = `${cellId(f.cell)}#${f.segments.id}`;
    let p = passes.get(key);
    if (p === undefined) passes.set(key, (p = setPasses(countsOf(f.cell, f.segments))));
    return p;
  };

  const current = new Set(obtainable.filter((g) => !g.segments.id.endsWith('-1')));
  // the order of precedence: the figure with fewer records (then the smaller id) is published first;
  // a later figure that conflicts with it is the one suppressed
  const rank = (g: Figure) => [total(countsOf(g.cell, g.segments)), `${cellId(g.cell)}#${g.segments.id}`] as const;
  const before = (g: Figure, f: Figure) => {
    const [gn, gi] = rank(g);
    const [fn, fi] = rank(f);
    return gn < fn || (gn === fn && gi < fi);
  };

  /**
   * May `f` be published? It passes the rule, and differs by none or a passing set from every
   * overlapping figure that passes the rule and is published before it: last week's publication,
   * and this week's figures with fewer records (those with more are checked against `f` in turn,
   * and suppressed on a conflict — so no two published figures conflict).
   */
  function allows(f: Figure): boolean {
    if (!passesOf(f)) return false;
    const a = countsOf(f.cell, f.segments);
    for (const g of obtainable) {
      if (!passesOf(g)) continue; // a figure that fails the rule is never published: nothing to subtract
      if (current.has(g) && !before(g, f)) continue;
      const m = meet(f.cell, g.cell);
      if (!m) continue;
      const shared = countsOf(m, both(f.segments, g.segments));
      if (total(shared) === 0) continue;
      const b = countsOf(g.cell, g.segments);
      const diff: CompanyCounts = new Map();
      for (const company of new Set([...a.keys(), ...b.keys()])) {
        const n = (a.get(company) ?? 0) + (b.get(company) ?? 0) - 2 * (shared.get(company) ?? 0);
        if (n > 0) diff.set(company, n);
      }
      if (diff.size > 0 && !setPasses(diff)) return false;
    }
    return true;
  }
  return { allows, counts: (f: Figure) => countsOf(f.cell, f.segments), obtainable };
}
