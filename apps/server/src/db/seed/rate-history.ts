import type { BulkRateRecord } from '../../modules/rates/rates.service.ts';
import { prng } from '../../seed/prng.ts';

/*
 * The demo's rate history (issue 20 "Demo data holds enough history"; docs/rates.md "Demo
 * history"): a year of bookings on the main Saudi lanes from a few hundred companies, generated
 * deterministically (seeded PRNG) so that the demo, the forecast's backtest and the tests see the
 * same history for the same seed and end day.
 *
 * Prices are ASSUMPTIONS (estimate): no public Saudi per-km or lane rate exists
 * (/work/shared/data/sa/freight-facts.md §4). They follow the demo loads' bands (2.5–6 SAR/km,
 * seed/demo-loads.ts CARGO), with a fixed charge per trip (short lanes cost more per km), a
 * contract discount, weekly and yearly seasonality and noise:
 *   - weekly: Friday has a third of the bookings and prices 3 % lower; Saturday–Monday 2 % higher;
 *   - Ramadan (Hijri month 9, Umm al-Qura calendar): 25 % fewer bookings, prices 4 % lower; the
 *     two weeks before it (stocking up) +6 %, more reefers;
 *   - Hajj season (Dhu al-Qadah 20 – Dhu al-Hijjah 15): lanes into Makkah, Jeddah and Madinah +12 %;
 *   - summer (June–August): 10 % fewer bookings; reefers +10 % (heat), other equipment −2 %;
 *   - diesel: the 1 January review (+7.8 % in 2026, freight-facts §1) lifts prices ≈ 3 % from the new year;
 *   - noise: log-normal, σ = 8 % spot, 5 % contract; 0.6 % of bookings are mistyped prices (×0.35 or ×2.6).
 */

/** A main lane: city ids, region ids and road distance (great-circle × 1.12, the app's ROAD_FACTOR), km. */
export interface DemoLane {
  from: number;
  fromRegion: number;
  to: number;
  toRegion: number;
  km: number;
  /** Bookings per day on an ordinary weekday. */
  perDay: number;
}

const lane = (from: number, fromRegion: number, to: number, toRegion: number, gcKm: number, perDay: number): DemoLane[] => [
  { from, fromRegion, to, toRegion, km: Math.round(gcKm * 1.12), perDay },
  // the way back: fewer bookings (backhaul) and so a little cheaper
  { from: to, fromRegion: toRegion, to: from, toRegion: fromRegion, km: Math.round(gcKm * 1.12), perDay: Math.max(1, Math.round(perDay * 0.7)) },
];

/** The main lanes (both ways): the Riyadh–Jeddah–Dammam triangle first (freight-facts §3). */
export const DEMO_LANES: DemoLane[] = [
  ...lane(3, 1, 18, 2, 851, 5), // Riyadh – Jeddah
  ...lane(3, 1, 13, 5, 390, 4), // Riyadh – Dammam
  ...lane(18, 2, 13, 5, 1239, 2), // Jeddah – Dammam
  ...lane(3, 1, 6, 2, 793, 1), // Riyadh – Makkah
  ...lane(18, 2, 14, 3, 334, 1), // Jeddah – Madinah
  ...lane(3, 1, 11, 4, 331, 1), // Riyadh – Buraidah
];

/** Equipment mix and base rate, SAR per km (estimate; seed/demo-loads.ts bands). */
export const DEMO_EQUIPMENT: { code: string; share: number; perKm: number }[] = [
  { code: 'flatbed_trailer', share: 0.3, perKm: 3.6 },
  { code: 'curtain_trailer', share: 0.25, perKm: 3.4 },
  { code: 'reefer_trailer', share: 0.2, perKm: 5.1 },
  { code: 'box_trailer', share: 0.15, perKm: 3.7 },
  { code: 'tanker', share: 0.1, perKm: 4.7 },
];

/** Fixed charge per trip (loading, waiting), SAR (estimate). */
const FIXED_SAR = 350;
const HAJJ_CITIES = new Set([6, 18, 14]);
const DAY_MS = 86_400_000;

const hijri = new Intl.DateTimeFormat('en-u-ca-islamic-umalqura', { month: 'numeric', day: 'numeric', timeZone: 'UTC' });
/** Hijri month (1–12) and day of a UTC day (Umm al-Qura, the Saudi civil calendar). */
function hijriOf(d: Date): { month: number; day: number } {
  const parts = hijri.formatToParts(d);
  return { month: Number(parts.find((p) => p.type === 'month')?.value), day: Number(parts.find((p) => p.type === 'day')?.value) };
}

/** A v4-shaped uuid from the PRNG (deterministic ids: a second seed of the same history inserts nothing). */
function uuidFrom(rnd: () => number): string {
  const h = Array.from({ length: 32 }, () => Math.floor(rnd() * 16).toString(16));
  h[12] = '4';
  h[16] = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/** A standard normal draw (Box–Muller) from the PRNG. */
const normal = (rnd: () => number) => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());

/** The history's companies, largest first (the first draws of the PRNG: the same ids whatever the end day). */
function demoRateCompanies(rnd: () => number, n: number): string[] {
  return Array.from({ length: n }, () => uuidFrom(rnd));
}

/** The largest company of the history of `seed`: the demo seed asks whether its records exist before generating again. */
export const demoRateLeadCompany = (seed = 20261126): string => demoRateCompanies(prng(seed), 1)[0];

export interface RateHistoryOptions {
  /** PRNG seed (default 20261126). */
  seed?: number;
  /** The last day of the history (UTC instant; default now). */
  end?: Date;
  /** Days of history ending at `end` (default 365). */
  days?: number;
  /** Shipper and broker companies (default 320). */
  companies?: number;
  /** Accounts that should own some bookings (the demo shipper and broker): each ≈ 2 % of the bookings of the Riyadh lanes. */
  ownCompanyIds?: string[];
  /** Multiplier of every lane's daily volume (default 1). */
  volume?: number;
  lanes?: DemoLane[];
}

/**
 * Generate the demo rate history: bookings (rates.service BulkRateRecord) over `days` days ending
 * at `end`, on `lanes`, by `companies` shippers (weights ∝ 1/rank^0.8, so a few large shippers and
 * a long tail; none near 40 % of a lane), 30 % contract. Deterministic for the same options.
 * Booking times are Riyadh working hours (06:00–20:00). Roughly 7,500 bookings with the defaults.
 */
export function generateRateHistory(o: RateHistoryOptions = {}): BulkRateRecord[] {
  const rnd = prng(o.seed ?? 20261126);
  const end = o.end ?? new Date();
  const days = o.days ?? 365;
  const lanes = o.lanes ?? DEMO_LANES;
  const volume = o.volume ?? 1;
  const companies = demoRateCompanies(rnd, o.companies ?? 320);
  const carriers = Array.from({ length: 500 }, () => uuidFrom(rnd));
  const weights = companies.map((_, i) => 1 / Math.pow(i + 1, 0.8));
  const totalW = weights.reduce((a, b) => a + b, 0);
  const pickCompany = () => {
    let r = rnd() * totalW;
    for (let i = 0; i < companies.length; i++) if ((r -= weights[i]) < 0) return companies[i];
    return companies[companies.length - 1];
  };
  const pickEquipment = (reeferBoost: number) => {
    const total = DEMO_EQUIPMENT.reduce((a, e) => a + e.share * (e.code === 'reefer_trailer' ? reeferBoost : 1), 0);
    let r = rnd() * total;
    for (const e of DEMO_EQUIPMENT) if ((r -= e.share * (e.code === 'reefer_trailer' ? reeferBoost : 1)) < 0) return e;
    return DEMO_EQUIPMENT[0];
  };
  const endDay = Math.floor((end.getTime() + 3 * 3_600_000) / DAY_MS);
  const out: BulkRateRecord[] = [];
  for (let d = endDay - days + 1; d <= endDay; d++) {
    const date = new Date(d * DAY_MS);
    const weekday = date.getUTCDay(); // 5 = Friday
    const month = date.getUTCMonth() + 1;
    const h = hijriOf(date);
    const ahead = hijriOf(new Date((d + 14) * DAY_MS));
    const ramadan = h.month === 9;
    const preRamadan = !ramadan && ahead.month === 9;
    const hajj = (h.month === 11 && h.day >= 20) || (h.month === 12 && h.day <= 15);
    const summer = month >= 6 && month <= 8;
    // diesel review on 1 January: ≈ +3 % on freight from the new year (relative to the history's start)
    const dieselStep = date.getUTCFullYear() > new Date((endDay - days + 1) * DAY_MS).getUTCFullYear() ? 1.03 : 1;
    let volumeFactor = weekday === 5 ? 0.33 : weekday === 4 ? 0.8 : 1;
    if (ramadan) volumeFactor *= 0.75;
    if (summer) volumeFactor *= 0.9;
    let priceDay = weekday === 5 ? 0.97 : weekday === 6 || weekday === 0 || weekday === 1 ? 1.02 : 1;
    if (ramadan) priceDay *= 0.96;
    if (preRamadan) priceDay *= 1.06;
    priceDay *= dieselStep;
    for (const l of lanes) {
      const expected = l.perDay * volume * volumeFactor;
      // Poisson-ish count: floor plus a Bernoulli remainder
      const n = Math.floor(expected) + (rnd() < expected - Math.floor(expected) ? 1 : 0);
      for (let i = 0; i < n; i++) {
        const e = pickEquipment(preRamadan ? 1.5 : summer ? 1.2 : 1);
        const contract = rnd() < 0.3;
        let factor = priceDay;
        if (hajj && HAJJ_CITIES.has(l.to)) factor *= 1.12;
        if (summer) factor *= e.code === 'reefer_trailer' ? 1.1 : 0.98;
        if (contract) factor *= 0.93;
        if (l.perDay < lanes.find((x) => x.from === l.to && x.to === l.from)!.perDay) factor *= 0.94; // backhaul side
        const sigma = contract ? 0.05 : 0.08;
        let price = (FIXED_SAR + l.km * e.perKm) * factor * Math.exp(sigma * normal(rnd));
        if (rnd() < 0.006) price *= rnd() < 0.5 ? 0.35 : 2.6; // a mistyped price: an outlier
        const own = o.ownCompanyIds?.length && l.from === 3 && rnd() < 0.02 ? o.ownCompanyIds[Math.floor(rnd() * o.ownCompanyIds.length)] : null;
        const minute = 6 * 60 + Math.floor(rnd() * 14 * 60);
        out.push({
          loadId: uuidFrom(rnd),
          kind: contract ? 'contract' : 'spot',
          source: contract ? (rnd() < 0.6 ? 'tender' : 'vendor') : rnd() < 0.15 ? 'book_now' : 'offer',
          companyId: own ?? pickCompany(),
          carrierId: carriers[Math.floor(rnd() * carriers.length)],
          bookedAt: new Date(d * DAY_MS + minute * 60_000 - 3 * 3_600_000),
          originCityId: l.from,
          originRegionId: l.fromRegion,
          destinationCityId: l.to,
          destinationRegionId: l.toRegion,
          equipment: e.code,
          loadType: 'ftl',
          distanceKm: l.km,
          weightKg: 10_000 + Math.floor(rnd() * 15) * 1000,
          priceSar: Math.round(price / 10) * 10,
        });
      }
    }
  }
  return out;
}
