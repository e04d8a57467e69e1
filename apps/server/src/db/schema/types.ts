import { normalizeMoney } from '@masar/shared';
import { bigint, customType, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';

/**
 * numeric(12,2) money in SAR read and written as its exact decimal text ("1500.00"), never a
 * float (issue 6: amounts exact to the halala). PGlite may hand back a number for a numeric;
 * two decimals of a value that was stored with two decimals format back exactly.
 */
export const money = customType<{ data: string; driverData: string | number }>({
  dataType: () => 'numeric(12,2)',
  fromDriver: (v) => (typeof v === 'number' ? v.toFixed(2) : normalizeMoney(v)),
  toDriver: (v) => v,
});

/** numeric(p,s) read as a JS number (money in SAR, km, kg — all well inside 2^53). */
export const num = customType<{ data: number; driverData: string | number; config: { precision: number; scale: number } }>({
  dataType: (cfg) => (cfg ? `numeric(${cfg.precision},${cfg.scale})` : 'numeric'),
  fromDriver: (v) => (typeof v === 'number' ? v : Number(v)),
  toDriver: (v) => String(v),
});

/**
 * A table of versions per place and equipment (kind, equipment, y, x → v; migrations 0102, 0130):
 * board_versions (the load board) and truck_board_versions (the truck board) have this one shape,
 * read and bumped by db/place-versions.ts.
 */
export const placeVersionsTable = <N extends string>(name: N) =>
  pgTable(
    name,
    {
      kind: smallint('kind').notNull(),
      equipment: text('equipment').notNull(),
      y: integer('y').notNull(),
      x: integer('x').notNull(),
      v: bigint('v', { mode: 'number' }).notNull().default(0),
    },
    (t) => [primaryKey({ columns: [t.kind, t.equipment, t.y, t.x] })],
  );
