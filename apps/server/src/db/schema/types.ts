import { customType } from 'drizzle-orm/pg-core';

/** numeric(p,s) read as a JS number (money in SAR, km, kg — all well inside 2^53). */
export const num = customType<{ data: number; driverData: string | number; config: { precision: number; scale: number } }>({
  dataType: (cfg) => (cfg ? `numeric(${cfg.precision},${cfg.scale})` : 'numeric'),
  fromDriver: (v) => (typeof v === 'number' ? v : Number(v)),
  toDriver: (v) => String(v),
});
