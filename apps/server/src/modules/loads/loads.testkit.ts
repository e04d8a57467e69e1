import type { CreateLoadBody, Load } from '@masar/shared';
import type { App } from '../../app.ts';

/** Reference city ids used by the load tests (apps/server/src/db/reference/cities.json). */
export const CITY = {
  riyadh: 3,
  jeddah: 18,
  dammam: 13,
  alKharj: 1061,
  /** 99.1 km from Riyadh's centre (great-circle) */
  asSufarat: 448,
  /** 100.2 km from Riyadh's centre */
  alAziziyah: 3771,
  /** 199.8 km from Riyadh's centre */
  alUwaysiyah: 867,
  /** 200.9 km from Riyadh's centre */
  nukhaylan: 892,
} as const;

const DAY = 86_400_000;
/** ISO time `days` days (and `hours` hours) from now. */
export const inDays = (days: number, hours = 0) => new Date(Date.now() + days * DAY + hours * 3_600_000).toISOString();

/** A valid POST /loads body: Riyadh → Jeddah flatbed, pickup in `day` days, drop two days later. */
export function loadBody(over: Partial<CreateLoadBody> & { day?: number; from?: number; to?: number; price?: number } = {}): CreateLoadBody {
  const { day = 2, from = CITY.riyadh, to = CITY.jeddah, price, ...rest } = over;
  return {
    loadType: 'FTL',
    equipmentType: 'flatbed_trailer',
    stops: [
      { stopType: 1, cityId: from, date: inDays(day), address: 'Warehouse 7, 2nd Industrial City' },
      { stopType: 2, cityId: to, date: inDays(day + 2), address: 'Port road' },
    ],
    cargo: [{ goodsType: 'building_materials', lengthCm: 1200, widthCm: 240, heightCm: 200, quantity: 20, weightPerItemKg: 1000 }],
    priceSar: '3000',
    comments: 'Forklift at both ends',
    ...(price !== undefined ? { priceSar: String(price) } : {}),
    ...rest,
  };
}

/** POST /loads and return the load (throws unless 201). */
export async function postLoad(app: App, headers: Record<string, string>, body: CreateLoadBody = loadBody()): Promise<Load> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/loads', headers, payload: body });
  if (res.statusCode !== 201) throw new Error(`POST /loads ${res.statusCode}: ${res.body}`);
  return res.json<{ data: Load }>().data;
}
