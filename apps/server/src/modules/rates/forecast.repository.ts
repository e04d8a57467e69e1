import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';

/*
 * Reads of the lane rate forecast (issue 20). lane_rate_daily (migration 0111) is owned and
 * written by the rates index (its outbox handler); this file only reads it.
 */

/** A day of a lane: its Riyadh date, record count and average SAR per trip. */
export interface LaneDay {
  day: string;
  records: number;
  avgSar: number;
}

/**
 * The daily averages of a lane from `fromDay` through `toDay` (inclusive, YYYY-MM-DD), days with
 * records only, oldest first. `level` 'city_city' with the city ids, or 'national' (keys 0, 0).
 * `equipment` '*' = every equipment. One primary-key range.
 */
export function laneDays(
  db: DbOrTx,
  lane: { level: 'city_city' | 'national'; originKey: number; destinationKey: number; equipment: string; kind: 'spot' | 'contract' },
  fromDay: string,
  toDay: string,
): Promise<LaneDay[]> {
  return queryRows<LaneDay>(
    db,
    sql`select to_char(day, 'YYYY-MM-DD') as day, records, (sum_sar / records)::float8 as "avgSar"
          from lane_rate_daily
         where level = ${lane.level} and origin_key = ${lane.originKey} and destination_key = ${lane.destinationKey}
           and equipment = ${lane.equipment} and kind = ${lane.kind}
           and day between ${fromDay}::date and ${toDay}::date and records > 0
         order by day`,
    'lane_days',
  );
}

/** A publication week of a lane (disclosure.ts): weeks before `end` (0 = the week ending `end`), its records and SAR sum. */
export interface LaneWeek {
  week: number;
  records: number;
  sumSar: number;
}

/**
 * The weekly sums of a city → city lane over `weeks` Sunday–Saturday weeks ending `end` (week 0
 * ends on `end`), weeks with records only. `equipment` '*' = every equipment.
 */
export function laneWeeks(
  db: DbOrTx,
  lane: { originKey: number; destinationKey: number; equipment: string; kind: 'spot' | 'contract' },
  end: string,
  weeks: number,
): Promise<LaneWeek[]> {
  return queryRows<LaneWeek>(
    db,
    sql`select ((${end}::date - day) / 7)::int as week, sum(records)::int as records, sum(sum_sar)::float8 as "sumSar"
          from lane_rate_daily
         where level = 'city_city' and origin_key = ${lane.originKey} and destination_key = ${lane.destinationKey}
           and equipment = ${lane.equipment} and kind = ${lane.kind}
           and day between (${end}::date - ${7 * weeks - 1}::int) and ${end}::date and records > 0
         group by 1`,
    'lane_weeks',
  );
}
