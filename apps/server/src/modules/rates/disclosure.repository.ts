import { sql } from 'drizzle-orm';
import type { RateLevel } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';
import { cellId, segmentId, shift, type Cell, type DisclosureGrid, type GridLane } from './disclosure.ts';

/** Weeks of history the grid reads: a year and last week's publication, and 13 calendar months. */
export const GRID_WEEKS = 58;

/**
 * Read the grid around a lane: records per company per segment (publication week × month) of every
 * cell a reader can reach that overlaps the lane's own cells — every region→region pair (national
 * is their sum), and the region→city, city→region and city→city cells inside the lane's region pair
 * — for every equipment and '*' (a reader can subtract a lane with an equipment from the lane
 * without), one kind, GRID_WEEKS weeks ending `end`.
 */
export async function readGrid(db: DbOrTx, lane: GridLane, end: string): Promise<DisclosureGrid> {
  const from = shift(end, -(7 * GRID_WEEKS - 1));
  const rows = await queryRows<{
    level: RateLevel;
    origin_key: number;
    destination_key: number;
    origin_region: number;
    destination_region: number;
    equipment: string;
    week: number;
    month: string;
    company: string;
    n: number;
  }>(
    db,
    sql`select d.level, d.origin_key, d.destination_key, d.equipment,
               coalesce(oc.region_id, d.origin_key) as origin_region, coalesce(dc.region_id, d.destination_key) as destination_region,
               ((${end}::date - d.day) / 7)::int as week, to_char(d.day, 'YYYY-MM') as month, c.key as company, sum(c.value::int)::int as n
        from lane_rate_daily d
        left join cities oc on d.level in ('city_city', 'city_region') and oc.id = d.origin_key
        left join cities dc on d.level in ('city_city', 'region_city') and dc.id = d.destination_key
        cross join lateral jsonb_each_text(d.companies) c
        where d.kind = ${lane.kind} and d.day between ${from} and ${end} and d.records > 0
          and (d.level in ('national', 'region_region')
               or (d.level = 'region_city' and d.origin_key = ${lane.originRegionId} and dc.region_id = ${lane.destinationRegionId})
               or (d.level = 'city_region' and oc.region_id = ${lane.originRegionId} and d.destination_key = ${lane.destinationRegionId})
               or (d.level = 'city_city' and oc.region_id = ${lane.originRegionId} and dc.region_id = ${lane.destinationRegionId}))
        group by 1, 2, 3, 4, 5, 6, 7, 8, 9`,
    'rates_disclosure_grid',
    'generic',
  );
  const cells: DisclosureGrid['cells'] = new Map();
  for (const r of rows) {
    if (!(r.n > 0)) continue;
    const cell: Cell = {
      level: r.level,
      originKey: r.origin_key,
      destinationKey: r.destination_key,
      originRegion: r.origin_region,
      destinationRegion: r.destination_region,
      equipment: r.equipment,
    };
    const id = cellId(cell);
    let e = cells.get(id);
    if (!e) cells.set(id, (e = { cell, counts: new Map() }));
    const s = segmentId(r.week, r.month);
    let c = e.counts.get(s);
    if (!c) e.counts.set(s, (c = new Map()));
    c.set(r.company, (c.get(r.company) ?? 0) + r.n);
  }
  return { lane, end, cells };
}
