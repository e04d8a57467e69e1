/**
 * E2E fixture (issue 20): daily lane aggregates for the forecast journey, written into the
 * database the server is configured with (DATA_DIR / DATABASE_URL), as the rates index's outbox
 * handler would have written them. Until the demo seed holds a rate history, the journey runs on
 * these. Usage (the harness stops the server first): node --import tsx e2e/seed-lane-rates.ts ORIGIN DESTINATION [DAYS]
 */
import { resolve } from 'node:path';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { syntheticLane } from '../apps/server/src/modules/rates/forecast.ts';
import { riyadhDay } from '../apps/server/src/modules/rates/forecast.service.ts';

const [origin, destination, days = 180] = process.argv.slice(2).map(Number);
// the server's own settings (the harness runs this with the server's environment); no full config
// load: that would also validate the gateways for NODE_ENV
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: resolve(process.env.DATA_DIR ?? './data'), poolMax: 2 });
try {
  await migrate(database);
  const today = new Date(`${riyadhDay(new Date())}T00:00:00Z`);
  today.setUTCDate(today.getUTCDate() - 1);
  const lastDay = today.toISOString().slice(0, 10);
  const rows = [
    ...syntheticLane({ lastDay, days, missingShare: 0.05, seed: 11 }).map((d) => ({ ...d, level: 'city_city', o: origin, dst: destination })),
    ...syntheticLane({ lastDay, days, base: 2100, seed: 12 }).map((d) => ({ ...d, level: 'national', o: 0, dst: 0 })),
  ];
  for (const r of rows) {
    await database.query(
      `insert into lane_rate_daily (level, origin_key, destination_key, equipment, kind, day, records, sum_sar, sum_sq_sar, sum_km)
       values ($1, $2, $3, '*', 'spot', $4::date, 4, $5, $6, 3800)
       on conflict (level, origin_key, destination_key, equipment, kind, day) do nothing`,
      [r.level, r.o, r.dst, r.day, (r.avgSar * 4).toFixed(2), r.avgSar * r.avgSar * 4],
    );
  }
  console.log(`lane_rate_daily: ${rows.length} rows (${origin} → ${destination} and national) up to ${lastDay}`);
} finally {
  await database.close();
}
