import { fromHalalas, ratePerKmSar, SHIPMENT_TYPE, type DomainEventInputData, type EventInput, type ShipmentEventType } from '@masar/shared';
import type { Config } from '../config.ts';
import { createGreatCircleRouting } from '../gateways/routing/routing.ts';
import { newId } from '../lib/ids.ts';
import * as authoring from '../modules/loads/authoring.repository.ts';
import * as offersRepo from '../modules/offers/offers.repository.ts';
import { publishMany } from '../modules/events/events.service.ts';
import { loadEvent } from '../modules/loads/lifecycle.ts';
import { searchCities } from '../modules/reference/reference.repository.ts';
import type { Db } from '../db/client.ts';
import { prng } from './prng.ts';

/** Whole riyals (the demo prices are multiples of 50) → the exact money string. */
const sar = (riyals: number) => fromHalalas(riyals * 100);

/**
 * Real Saudi freight hubs (ids of cities.json) with a weight: how often a demo load starts or
 * ends there (the Riyadh–Jeddah–Dammam triangle carries most of the traffic).
 */
const HUBS: [id: number, weight: number][] = [
  [3, 26], // Riyadh
  [18, 20], // Jeddah
  [13, 14], // Dammam
  [6, 5], // Makkah
  [14, 5], // Madinah
  [1061, 4], // Al Kharj
  [31, 4], // Al Khobar
  [1, 3], // Tabuk
  [15, 3], // Abha
  [11, 4], // Buraidah
  [10, 3], // Hail
  [17, 3], // Jazan
  [3417, 2], // Najran
  [483, 4], // Yanbu
  [5, 3], // At Taif
  [62, 3], // Khamis Mushayt
  [67, 2], // Al Qatif
];

/**
 * Goods and the equipment that carries them, with a rate band in SAR per km. The rates are
 * assumptions (estimate): no public Saudi per-km rate exists (../shared/data/sa/freight-facts.md
 * §4); they sit around 2.5–6 SAR/km, higher for reefers, tankers and lowbeds.
 */
const CARGO: { goods: string; equipment: string[]; rate: [number, number]; item: [l: number, w: number, h: number, kg: number]; ltl?: boolean }[] = [
  { goods: 'meat_poultry_fish', equipment: ['reefer_trailer'], rate: [4.8, 6], item: [120, 100, 150, 800] },
  { goods: 'dairy_eggs', equipment: ['reefer_trailer', 'reefer_truck'], rate: [4.5, 5.8], item: [120, 100, 150, 700] },
  { goods: 'vegetables_fruits', equipment: ['reefer_trailer', 'reefer_truck'], rate: [4.2, 5.5], item: [120, 100, 160, 600] },
  { goods: 'pharmaceuticals', equipment: ['reefer_truck'], rate: [5, 6], item: [120, 80, 120, 300], ltl: true },
  { goods: 'dates', equipment: ['curtain_trailer', 'box_trailer'], rate: [3, 4], item: [120, 100, 150, 900] },
  { goods: 'grains_flour', equipment: ['curtain_trailer', 'sided_trailer'], rate: [2.8, 3.8], item: [120, 100, 140, 1000] },
  { goods: 'animal_feed', equipment: ['sided_trailer', 'curtain_trailer'], rate: [2.6, 3.5], item: [120, 100, 140, 1000] },
  { goods: 'packaged_food', equipment: ['box_trailer', 'curtain_trailer'], rate: [3.2, 4.2], item: [120, 100, 160, 700] },
  { goods: 'beverages_water', equipment: ['curtain_trailer', 'box_trailer'], rate: [3, 4], item: [120, 100, 150, 1000] },
  { goods: 'sand_gravel_cement', equipment: ['tipper'], rate: [2.5, 3.3], item: [600, 240, 150, 20000] },
  { goods: 'building_materials', equipment: ['flatbed_trailer', 'sided_trailer'], rate: [3, 4.2], item: [240, 120, 100, 1500] },
  { goods: 'iron_steel', equipment: ['flatbed_trailer'], rate: [3.3, 4.5], item: [1200, 40, 40, 2000] },
  { goods: 'fuel_petroleum', equipment: ['tanker'], rate: [4, 5.5], item: [1200, 250, 300, 30000] },
  { goods: 'chemicals', equipment: ['tanker', 'box_trailer'], rate: [4.2, 5.5], item: [120, 100, 120, 900] },
  { goods: 'heavy_equipment', equipment: ['lowbed'], rate: [5, 6], item: [900, 300, 350, 30000] },
  { goods: 'machinery_equipment', equipment: ['flatbed_trailer', 'lowbed'], rate: [3.8, 5], item: [400, 220, 250, 6000] },
  { goods: 'electrical_electronics', equipment: ['box_trailer', 'lorry'], rate: [3.5, 4.5], item: [120, 100, 150, 400] },
  { goods: 'furniture', equipment: ['box_trailer', 'lorry'], rate: [3.2, 4.2], item: [200, 100, 120, 150] },
  { goods: 'consumer_goods', equipment: ['curtain_trailer', 'box_trailer', 'container_40'], rate: [3.2, 4.2], item: [120, 100, 160, 500] },
  { goods: 'general_cargo', equipment: ['container_40', 'container_20'], rate: [3, 4.2], item: [1200, 235, 239, 18000] },
  { goods: 'household_moving', equipment: ['lorry', 'dyna'], rate: [3, 4], item: [100, 80, 80, 60], ltl: true },
  { goods: 'textiles_apparel', equipment: ['dyna', 'lorry'], rate: [2.6, 3.6], item: [80, 60, 60, 40], ltl: true },
];

const MAX_KG: Record<string, number> = {
  reefer_trailer: 22000,
  reefer_truck: 4000,
  curtain_trailer: 25000,
  box_trailer: 25000,
  sided_trailer: 25000,
  flatbed_trailer: 25000,
  tipper: 20000,
  tanker: 30000,
  lowbed: 50000,
  lorry: 8000,
  dyna: 4000,
  container_20: 28000,
  container_40: 28000,
};

const COMMENTS = [
  'Forklift available at pickup.',
  'التحميل صباحاً، الرجاء الالتزام بالموعد.',
  'Driver must carry Iqama and licence; gate pass needed.',
  'يوجد رصيف تحميل في المستودع.',
  'Keep at 2–4 °C throughout.',
  null,
  null,
  null,
];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** What one demo offer adds: its row, its bid/counter/accept events, and the domain events (through `ev`). */
interface DemoOfferOut {
  offerRows: offersRepo.NewOfferRow[];
  eventRows: offersRepo.NewOfferEventRow[];
  ev: <K extends ShipmentEventType>(type: K, loadId: string, shipperId: string, actorId: string, data: DomainEventInputData<K>) => void;
}

/**
 * The demo carrier's offer on one demo load: accepted (with load.booked) on a booking, else
 * pending at 5–15 % over the price, every third one countered by the shipper at +2 %. Prices in
 * SAR rounded to 50; `rnd` is the seed's generator (one draw for a pending offer).
 */
function seedDemoOffer(
  { offerRows, eventRows, ev }: DemoOfferOut,
  p: { rnd: () => number; now: number; i: number; loadId: string; shipperId: string; carrierId: string; price: number; postedAt: Date | null; booked: boolean },
): void {
  const { rnd, now, i, loadId, shipperId, carrierId, price, postedAt, booked } = p;
  const offerId = newId();
  const bidPrice = Math.round((price * (booked ? 1 : 1.05 + rnd() * 0.1)) / 50) * 50;
  const countered = !booked && i % 3 === 0;
  const counterPrice = Math.round((price * 1.02) / 50) * 50;
  const at = new Date(Math.min(now - 60_000, (postedAt?.getTime() ?? now) + 2 * HOUR));
  offerRows.push({
    id: offerId,
    loadId,
    carrierId,
    shipperId,
    price: sar(countered ? counterPrice : bidPrice),
    originalPrice: sar(bidPrice),
    lastOfferBy: countered ? 'shipper' : 'carrier',
    status: booked ? 'accepted' : 'pending',
    createdAt: at,
    updatedAt: at,
  });
  eventRows.push({ id: newId(), offerId, byParty: 'carrier', action: 'bid', price: sar(bidPrice), createdAt: at });
  if (countered)
    eventRows.push({ id: newId(), offerId, byParty: 'shipper', action: 'counter', price: sar(counterPrice), createdAt: new Date(at.getTime() + 1000) });
  if (booked) eventRows.push({ id: newId(), offerId, byParty: 'shipper', action: 'accept', price: sar(bidPrice), createdAt: new Date(at.getTime() + 1000) });
  ev('offer.created', loadId, shipperId, carrierId, { offerId, carrierId, priceSar: sar(bidPrice) });
  const pending = { from: 'pending', to: 'pending' };
  if (countered) ev('offer.countered', loadId, shipperId, shipperId, { offerId, carrierId, by: 'shipper', priceSar: sar(counterPrice), status: pending });
  if (booked) {
    ev('offer.accepted', loadId, shipperId, shipperId, {
      offerId,
      carrierId,
      by: 'shipper',
      priceSar: sar(bidPrice),
      status: { from: 'pending', to: 'accepted' },
    });
    ev('load.booked', loadId, shipperId, shipperId, { offerId, carrierId, bookedPriceSar: sar(bidPrice), status: { from: 'posted', to: 'unassigned' } });
  }
}

/**
 * A few hundred demo loads on real Saudi lanes (issue 2), posted by the demo shipper and
 * broker, dated relative to today (pickups from tomorrow to +14 days) so the board is never
 * stale: most posted, some unposted, some with offers from the demo carrier (a few countered),
 * some booked by it (active jobs) and a few completed. Idempotent: does nothing when the demo
 * shipper or broker already has loads (then it only moves their dates forward, see
 * refreshDemoLoads).
 *
 * Batch inserts, one transaction, and in that transaction the events each load would have had
 * from its users (issue 18), in their order: load.posted; the carrier's offer.created;
 * offer.countered; offer.accepted and load.booked; load.completed — through `publishMany` (the
 * same parties and schema check as `publish`). Why not the services' calls one by one, moving each
 * load through `transition()`: measured on this seed, ~350 lifecycle steps of ~3 statements each
 * took 12 s on PostgreSQL and 17–24 s on PGlite against ~2 s for the batch (`npm run bench:seed`),
 * and they cannot write the board's history (posting and booking times in the past; the completed
 * loads' pickups, which the lifecycle would see as expired). The completed loads were never
 * assigned a demo vehicle, so their path shows no load.assigned.
 */
export async function seedDemoLoads(
  db: Db,
  config: Pick<Config, 'ROAD_FACTOR' | 'LOAD_EXPIRY_HOURS_AFTER_PICKUP'>,
  ids: Record<1 | 2 | 3, string>,
  loads: DemoLoadsRefresh,
  count = 300,
): Promise<number> {
  const shipperIds = [ids[1], ids[3]];
  if (await authoring.shippersHaveLoads(db, shipperIds)) {
    await refreshDemoLoads(loads, shipperIds);
    return 0;
  }

  const { items: cityRows } = await searchCities(
    db,
    undefined,
    HUBS.length,
    HUBS.map(([id]) => id),
  );
  const city = new Map(cityRows.map((c) => [c.id, c]));
  const hubs = HUBS.filter(([id]) => city.has(id));
  if (hubs.length < 2) return 0;
  const refs = await authoring.nextReferenceIds(db, count);

  const routing = createGreatCircleRouting(config.ROAD_FACTOR);
  const rnd = prng(20261122);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const totalWeight = hubs.reduce((s, [, w]) => s + w, 0);
  const pickHub = () => {
    let r = rnd() * totalWeight;
    for (const [id, w] of hubs) if ((r -= w) < 0) return id;
    return hubs[0][0];
  };
  const carrierId = ids[2];
  const now = Date.now();
  const today = new Date(now);
  today.setUTCHours(0, 0, 0, 0);

  const loadRows: authoring.NewLoad[] = [];
  const stopRows: authoring.NewStopRow[] = [];
  const cargoRows: authoring.NewCargoRow[] = [];
  const offerRows: offersRepo.NewOfferRow[] = [];
  const eventRows: offersRepo.NewOfferEventRow[] = [];
  const events: EventInput[] = [];
  const ev = <K extends ShipmentEventType>(type: K, loadId: string, shipperId: string, actorId: string, data: DomainEventInputData<K>) => {
    const { status: moved }: { status?: { from: string; to: string } } = data;
    events.push(loadEvent(type, loadId, shipperId, actorId, { ...(moved ? { from: moved.from, to: moved.to } : {}), ...data, demoSeed: true }));
  };

  for (let i = 0; i < count; i++) {
    const from = pickHub();
    let to = pickHub();
    const a = city.get(from)!;
    let b = city.get(to)!;
    // no same-city or next-door lanes (Dammam–Al Khobar–Al Qatif are ~15–25 km apart)
    for (let tries = 0; (to === from || Math.abs(a.lat - b.lat) + Math.abs(a.lng - b.lng) < 0.5) && tries < 20; tries++) {
      to = pickHub();
      b = city.get(to)!;
    }
    if (to === from) continue;
    const kind = pick(CARGO);
    const equipment = pick(kind.equipment);
    const distanceKm = await routing.distanceKm([a, b]);
    const rate = kind.rate[0] + rnd() * (kind.rate[1] - kind.rate[0]);
    const price = Math.max(400, Math.round((distanceKm * rate) / 50) * 50);

    // roles of the demo board: 8 completed, 15 booked by the demo carrier, 20 unposted, the rest posted
    const role = i < 8 ? 'completed' : i < 23 ? 'unassigned' : i < 43 ? 'unposted' : 'posted';
    const dayOffset = role === 'completed' ? -(3 + Math.floor(rnd() * 20)) : 1 + Math.floor(rnd() * 14);
    // pickups between 06:00 and 18:00 Riyadh time (UTC+3)
    const pickupAt = new Date(today.getTime() + dayOffset * DAY + (3 + Math.floor(rnd() * 12)) * HOUR);
    const dropAt = new Date(pickupAt.getTime() + Math.ceil(distanceKm / 60 + 4) * HOUR);
    const postedAt = role === 'unposted' ? null : new Date(Math.min(now - 10 * 60_000, pickupAt.getTime() - 6 * HOUR) - Math.floor(rnd() * 72) * HOUR);
    const ltl = kind.ltl === true || rnd() < 0.1;
    const maxKg = MAX_KG[equipment] ?? 20000;
    const [l, w, h, kg] = kind.item;
    const quantity = Math.max(1, Math.floor((maxKg * (ltl ? 0.2 + rnd() * 0.3 : 0.6 + rnd() * 0.35)) / kg));
    const id = newId();
    const booked = role === 'unassigned' || role === 'completed';
    const shipperId = rnd() < 0.65 ? shipperIds[0] : shipperIds[1];
    loadRows.push({
      id,
      referenceId: refs[i],
      shipperId,
      status: role,
      loadType: ltl ? 'LTL' : 'FTL',
      equipmentType: equipment,
      price: sar(price),
      distanceKm,
      ratePerKm: ratePerKmSar(sar(price), distanceKm),
      totalWeightKg: quantity * kg,
      comments: pick(COMMENTS),
      pickupCityId: from,
      pickupLat: a.lat,
      pickupLng: a.lng,
      pickupAt,
      dropCityId: to,
      dropLat: b.lat,
      dropLng: b.lng,
      dropAt,
      postedAt,
      expiresAt: new Date(pickupAt.getTime() + config.LOAD_EXPIRY_HOURS_AFTER_PICKUP * HOUR),
      carrierId: booked ? carrierId : null,
      bookedPrice: booked ? sar(price) : null,
      bookedAt: booked ? new Date(Math.min(now, (postedAt ?? new Date(now)).getTime() + 5 * HOUR)) : null,
      createdAt: postedAt ?? new Date(now - Math.floor(rnd() * 48) * HOUR),
    });
    stopRows.push(
      { id: newId(), loadId: id, idx: 0, stopType: 1, cityId: from, lat: a.lat, lng: a.lng, date: pickupAt },
      { id: newId(), loadId: id, idx: 1, stopType: 2, cityId: to, lat: b.lat, lng: b.lng, date: dropAt },
    );
    if (role !== 'unposted')
      ev('load.posted', id, shipperId, shipperId, {
        priceSar: sar(price),
        shipmentType: SHIPMENT_TYPE.marketplace,
        status: { from: 'unposted', to: 'posted' },
      });
    cargoRows.push({
      id: newId(),
      loadId: id,
      idx: 0,
      goodsType: kind.goods,
      lengthCm: l,
      widthCm: w,
      heightCm: h,
      quantity,
      weightPerItemKg: kg,
      stackable: kg < 1000,
      adr: kind.goods === 'fuel_petroleum' || kind.goods === 'chemicals',
    });

    // the demo carrier's offers: accepted on its bookings, pending on 12 posted loads (4 countered)
    if (booked || (role === 'posted' && i < 55))
      seedDemoOffer({ offerRows, eventRows, ev }, { rnd, now, i, loadId: id, shipperId, carrierId, price, postedAt, booked });
    if (role === 'completed') ev('load.completed', id, shipperId, carrierId, { carrierId, vehicleId: null, status: { from: 'assigned', to: 'completed' } });
  }

  await db.transaction(async (tx) => {
    await authoring.insertLoadsBulk(tx, { loads: loadRows, stops: stopRows, cargo: cargoRows });
    await offersRepo.insertOffersBulk(tx, offerRows, eventRows);
    await publishMany(tx, events);
  });
  return loadRows.length;
}

/** The loads service's demo refresh (modules/loads: dates forward, expired loads reposted through the lifecycle). */
export interface DemoLoadsRefresh {
  refreshDemo(shipperIds: string[]): Promise<number>;
}

/**
 * Keep a long-running demo fresh: the loads service moves the demo accounts' dates forward so that
 * their earliest open pickup is tomorrow again and reposts their expired loads like their shipper
 * would (load.posted events). Returns the days moved.
 */
export function refreshDemoLoads(loads: DemoLoadsRefresh, shipperIds: string[]): Promise<number> {
  return loads.refreshDemo(shipperIds);
}
