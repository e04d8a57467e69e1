import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import {
  isEvent,
  type Dashboard,
  type DashboardLane,
  type DashboardPeriod,
  type DomainEventType,
  type Language,
  type LoadStatistics,
  type Statistic,
} from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { replayEvents, type EventHandler, type OutboxEvent } from '../events/events.service.ts';
import { deliveryWindowEnd, pickupWindowEnd } from '../../lib/stop-windows.ts';
import type { loadLane, loadStopWindows } from '../loads/loads.service.ts';
import type { cityNamesByIds } from '../reference/reference.service.ts';
import * as repo from './dashboards.repository.ts';

dayjs.extend(utc);

/*
 * The dashboards (issue 20 "Dashboards"; spec §2; docs/dashboards.md): per-account aggregates kept
 * by the outbox handler `dashboards` from the shipment events, read by the dashboard API in a
 * bounded number of primary-key range reads — never the loads.
 */

/** Saudi Arabia keeps UTC+3 all year: the Riyadh calendar day of an instant, YYYY-MM-DD. */
export function riyadhDay(at: Date): string {
  return dayjs.utc(at).add(3, 'hour').format('YYYY-MM-DD');
}

/** The event types the dashboards count (the backfill replays exactly these). */
export const DASHBOARD_EVENT_TYPES = [
  'load.posted',
  'load.unposted',
  'load.expired',
  'load.cancelled',
  'load.bayan_cancelled',
  'load.booked',
  'offer.created',
  'offer.rejected',
  'offer.closed',
  'trip.step',
] as const satisfies readonly DomainEventType[];

/** Where a lane's facts come from (the loads module's functions, wired by the container; replaceable in tests). */
export interface DashboardSources {
  lane: typeof loadLane;
  windows: typeof loadStopWindows;
}

/** Apply a counted booking (sign 1) or take it back (−1): the shipper's assigned and spend, the carrier's won and revenue, both lanes. */
async function countBooking(tx: DbOrTx, shipperId: string, b: repo.Booking, sign: 1 | -1): Promise<void> {
  const money = sign === 1 ? b.priceSar : `-${b.priceSar}`;
  await repo.bumpDaily(tx, shipperId, b.day, { loads_assigned: sign, spend_sar: money });
  await repo.bumpDaily(tx, b.carrierId, b.day, { won: sign, revenue_sar: money, revenue_km: sign * b.distanceKm });
  await repo.bumpLane(tx, shipperId, 'shipper', b, sign);
  await repo.bumpLane(tx, b.carrierId, 'carrier', b, sign);
}

/**
 * Count one event into the dashboards (docs/dashboards.md "The statistics as built"). Idempotent:
 * a load's lifecycle events are admitted once, in publish order, by their outbox seq (`claim`);
 * an offer's facts and a trip's arrivals are each set once (dashboard_offers, the load's
 * measured flags) — so a redelivered or replayed event changes nothing. Team members act as their
 * owner account (the events name the owner accounts: shipperId, carrierId).
 */
export async function applyDashboardEvent(tx: DbOrTx, e: OutboxEvent, sources: DashboardSources): Promise<void> {
  if (!isEvent(e, ...DASHBOARD_EVENT_TYPES)) return;
  const d = e.data;
  const shipperId = d.shipperId;
  const carrierId = typeof d.carrierId === 'string' ? d.carrierId : null;
  if (isEvent(e, 'trip.step') && e.data.step !== 'at_pickup' && e.data.step !== 'at_drop') return;
  const day = riyadhDay(e.createdAt);

  // offers and trip steps: each fact counted once by its own guard, whatever the order
  if (isEvent(e, 'offer.created')) {
    const row = await repo.ensureLoad(tx, d.loadId, shipperId);
    if (!(await repo.setOfferFact(tx, e.data.offerId, 'made'))) return;
    // offers per load: counted on the day the load was first posted, so the average is over the period's loads
    await repo.bumpDaily(tx, shipperId, row.first_posted_on ?? day, { offers_received: 1 });
    await repo.bumpDaily(tx, e.data.carrierId, day, { offers_made: 1 });
    return;
  }
  if (isEvent(e, 'offer.closed') || isEvent(e, 'offer.rejected')) {
    if (isEvent(e, 'offer.rejected') && e.data.by !== 'shipper') return;
    if (await repo.setOfferFact(tx, e.data.offerId, 'lost')) await repo.bumpDaily(tx, e.data.carrierId, day, { lost: 1 });
    return;
  }
  if (isEvent(e, 'trip.step')) {
    if (!carrierId || carrierId === shipperId) return;
    await repo.ensureLoad(tx, d.loadId, shipperId);
    const w = await sources.windows(tx, d.loadId);
    if (!w) return;
    const at = new Date(e.data.at);
    const pickup = e.data.step === 'at_pickup';
    // the same rule as the fact-based record (docs/account-record.md), counted per shipper and day of arrival
    const onTime = at.getTime() <= (pickup ? pickupWindowEnd(w) : deliveryWindowEnd(w)).getTime();
    if (!(await repo.setMeasured(tx, d.loadId, pickup ? 'pickup' : 'drop'))) return;
    await repo.bumpDaily(
      tx,
      shipperId,
      riyadhDay(at),
      pickup ? { pickups_measured: 1, pickups_on_time: onTime ? 1 : 0 } : { deliveries_measured: 1, deliveries_on_time: onTime ? 1 : 0 },
    );
    return;
  }

  // the lifecycle's events: admitted once each, in the load's order (its outbox seq)
  if (!(await repo.claim(tx, d.loadId, shipperId, e.seq))) return;

  const close = async () => {
    if (await repo.setOpen(tx, d.loadId, false)) {
      await repo.bumpOpen(tx, shipperId, -1);
      await repo.bumpDaily(tx, shipperId, day, { open_delta: -1 });
    }
  };

  if (isEvent(e, 'load.posted')) {
    if (await repo.setFirstPosted(tx, d.loadId, day)) await repo.bumpDaily(tx, shipperId, day, { loads_posted: 1 });
    if (await repo.setOpen(tx, d.loadId, true)) {
      await repo.bumpOpen(tx, shipperId, 1);
      await repo.bumpDaily(tx, shipperId, day, { open_delta: 1 });
    }
    return;
  }
  if (isEvent(e, 'load.unposted')) return close();
  if (isEvent(e, 'load.expired')) {
    await close();
    await repo.bumpDaily(tx, shipperId, day, { loads_expired: 1 });
    return;
  }
  if (isEvent(e, 'load.cancelled', 'load.bayan_cancelled')) {
    await close();
    // a cancellation after booking takes the booking back from the day it was counted
    const b = await repo.cancelBooking(tx, d.loadId);
    if (b) await countBooking(tx, shipperId, b, -1);
    return;
  }
  if (isEvent(e, 'load.booked')) {
    await close();
    // own-vehicle shipments (the carrier is the shipper) are no booking to a carrier
    if (!carrierId || carrierId === shipperId || e.data.ownVehicle) return;
    const lane = await sources.lane(tx, d.loadId);
    if (!lane) return;
    const b: repo.Booking = {
      carrierId,
      day,
      priceSar: e.data.bookedPriceSar ?? lane.priceSar,
      originCityId: lane.originCityId,
      destinationCityId: lane.destinationCityId,
      distanceKm: lane.distanceKm,
    };
    if (await repo.setBooked(tx, d.loadId, b)) await countBooking(tx, shipperId, b, 1);
    return;
  }
}

/** The outbox consumer that keeps the dashboards (registered in container.ts, after account-record). */
export function dashboardsHandler(sources: DashboardSources): EventHandler {
  return {
    name: 'dashboards',
    handle: (tx, e) => applyDashboardEvent(tx, e, sources),
  };
}

/** A period's Riyadh days (inclusive) and the previous equal period, like for like. */
export interface PeriodRange {
  period: DashboardPeriod;
  from: string;
  to: string;
  previousFrom: string;
  previousTo: string;
}

/**
 * The days of This Week (from Sunday, the Saudi week's first day), This Month or This Year up to
 * today (Riyadh), and the previous equal period: the same number of days from the previous
 * period's start (last week to the same weekday; last month to the same day of the month, or its
 * last day; last year to the same date, 28 February for the 29th).
 */
export function periodRange(period: DashboardPeriod, now: Date = new Date()): PeriodRange {
  const today = dayjs.utc(riyadhDay(now));
  const fmt = (d: dayjs.Dayjs) => d.format('YYYY-MM-DD');
  if (period === 'week') {
    const from = today.subtract(today.day(), 'day');
    return { period, from: fmt(from), to: fmt(today), previousFrom: fmt(from.subtract(7, 'day')), previousTo: fmt(today.subtract(7, 'day')) };
  }
  const unit = period === 'month' ? 'month' : 'year';
  const from = today.startOf(unit);
  const previousFrom = from.subtract(1, unit);
  // dayjs clamps to the end of a shorter month (31 March − 1 month = 28/29 February)
  const previousTo = today.subtract(1, unit);
  return { period, from: fmt(from), to: fmt(today), previousFrom: fmt(previousFrom), previousTo: fmt(previousTo) };
}

/** A statistic against the previous period: changePct one decimal, null when the previous is 0. */
export function statistic(value: number, previous: number): Statistic {
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    value: round(value),
    previous: round(previous),
    changePct: previous === 0 ? null : Math.round(((value - previous) / Math.abs(previous)) * 1000) / 10,
  };
}

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : null);
const avgOffers = (offers: number, posted: number) => (posted > 0 ? Math.round((offers / posted) * 10) / 10 : 0);

/** What the dashboards service is given (by the container). */
export interface DashboardsDeps {
  db: Db;
  /** The loads module's lane and stop windows of a shipment (the backfill's handler). */
  sources: DashboardSources;
  /** City names by id in a language (modules/reference): the lanes' names. */
  cityNames: typeof cityNamesByIds;
}

/** The dashboards service: the reads of GET /dashboard and its parts, and the backfill. */
export function createDashboardsService(deps: DashboardsDeps) {
  const { db } = deps;

  /** Lanes with their city names in `lang`; the names of several lists in one read (`lists`). */
  async function named(lists: repo.LaneSums[][], lang: Language): Promise<DashboardLane[][]> {
    const ids = lists.flat().flatMap((r) => [r.origin_city_id, r.destination_city_id]);
    const names = ids.length ? await deps.cityNames(db, ids, lang) : new Map<number, string>();
    return lists.map((rows) =>
      rows.map((r) => ({
        originCityId: r.origin_city_id,
        originCity: names.get(r.origin_city_id) ?? String(r.origin_city_id),
        destinationCityId: r.destination_city_id,
        destinationCity: names.get(r.destination_city_id) ?? String(r.destination_city_id),
        loads: r.loads,
        valueSar: Math.round(r.value_sar * 100) / 100,
        avgSar: r.loads > 0 ? Math.round((r.value_sar / r.loads) * 100) / 100 : 0,
        perKmSar: r.km > 0 ? Math.round((r.value_sar / r.km) * 100) / 100 : null,
      })),
    );
  }

  /** The lane table of a period: the days for a week (it may cross a month), the month's or the year's rows otherwise. */
  const laneRange = (r: PeriodRange): { table: repo.LaneTable; from: string; to: string } =>
    r.period === 'week' ? { table: 'days', from: r.from, to: r.to } : { table: r.period === 'month' ? 'months' : 'years', from: r.from, to: r.from };

  async function sums(accountId: string, r: PeriodRange) {
    const [s, open] = await Promise.all([repo.dailySums(db, accountId, r), repo.openNow(db, accountId)]);
    return { ...s, open };
  }

  function shipperStats(s: Awaited<ReturnType<typeof sums>>): LoadStatistics['stats'] {
    const { current: c, previous: p } = s;
    return {
      loads_posted: statistic(c.loads_posted, p.loads_posted),
      loads_assigned: statistic(c.loads_assigned, p.loads_assigned),
      // the gauge now, and at the end of the previous period (now minus this period's net change)
      loads_open: statistic(s.open, s.open - c.open_delta),
      loads_expired: statistic(c.loads_expired, p.loads_expired),
      avg_offers_per_load: statistic(avgOffers(c.offers_received, c.loads_posted), avgOffers(p.offers_received, p.loads_posted)),
      final_value: statistic(c.spend_sar, p.spend_sar),
    };
  }

  function offerStats(s: Awaited<ReturnType<typeof sums>>): Dashboard['carrier']['offers'] {
    const { current: c, previous: p } = s;
    return {
      offersMade: statistic(c.offers_made, p.offers_made),
      won: statistic(c.won, p.won),
      lost: statistic(c.lost, p.lost),
      winRatePct: pct(c.won, c.won + c.lost),
      revenueSar: statistic(c.revenue_sar, p.revenue_sar),
    };
  }

  async function revenue(accountId: string, r: PeriodRange): Promise<Dashboard['carrier']['revenue']> {
    const granularity = r.period === 'year' ? ('month' as const) : ('day' as const);
    // the rate trend: this month and the 11 before it, from the daily rows
    const fromMonth = dayjs
      .utc(`${r.to.slice(0, 7)}-01`)
      .subtract(11, 'month')
      .format('YYYY-MM-DD');
    const [points, months] = await Promise.all([
      repo.revenueSeries(db, accountId, r.from, r.to, granularity),
      repo.carrierMonths(db, accountId, fromMonth, r.to),
    ]);
    return {
      granularity,
      points: points.map((p) => ({ bucket: p.bucket, revenueSar: Math.round(p.revenue_sar * 100) / 100, loads: p.loads })),
      rateTrend: months.map((m) => ({ month: m.month, loads: m.loads, perKmSar: m.km > 0 ? Math.round((m.value_sar / m.km) * 100) / 100 : null })),
    };
  }

  return {
    /** GET /loadStatistics: the six statistic keys of the account (as shipper) for the period. */
    async loadStatistics(accountId: string, period: DashboardPeriod, now = new Date()): Promise<LoadStatistics> {
      const range = periodRange(period, now);
      return { range, stats: shipperStats(await sums(accountId, range)) };
    },
    /** GET /getOfferStatistics: offers made, won, lost and revenue of the account as carrier. */
    async offerStatistics(accountId: string, period: DashboardPeriod, now = new Date()) {
      const range = periodRange(period, now);
      return { range, ...offerStats(await sums(accountId, range)) };
    },
    /** GET /carrierPopularRoutes: the account's 10 lanes with the most bookings as carrier in the period. */
    async popularRoutes(accountId: string, period: DashboardPeriod, lang: Language, now = new Date()) {
      const range = periodRange(period, now);
      const [items] = await named([await repo.lanes(db, accountId, 'carrier', laneRange(range), 'loads', 10)], lang);
      return { range, items };
    },
    /** GET /carrierLoadsRevenue: revenue per day (week, month) or month (year), and the 12-month SAR/km trend. */
    async carrierRevenue(accountId: string, period: DashboardPeriod, now = new Date()) {
      const range = periodRange(period, now);
      return { range, ...(await revenue(accountId, range)) };
    },
    /**
     * GET /dashboard: everything a dashboard page shows. `sides`: which sides the account can have
     * (a shipper account never bids, a carrier never posts; a broker has both) — the other side's
     * rows are not read and it answers zeros and empty lists.
     */
    async dashboard(
      accountId: string,
      period: DashboardPeriod,
      lang: Language,
      sides: { shipper: boolean; carrier: boolean } = { shipper: true, carrier: true },
      now = new Date(),
    ): Promise<Dashboard> {
      const range = periodRange(period, now);
      const lr = laneRange(range);
      const none = async (): Promise<repo.LaneSums[]> => [];
      const [s, spend, popular, top, rev] = await Promise.all([
        sums(accountId, range),
        sides.shipper ? repo.lanes(db, accountId, 'shipper', lr, 'value', 10) : none(),
        sides.carrier ? repo.lanes(db, accountId, 'carrier', lr, 'loads', 10) : none(),
        sides.carrier ? repo.lanes(db, accountId, 'carrier', lr, 'value', 10) : none(),
        sides.carrier ? revenue(accountId, range) : { granularity: range.period === 'year' ? ('month' as const) : ('day' as const), points: [], rateTrend: [] },
      ]);
      const [spendByLane, popularRoutes, topLanes] = await named([spend, popular, top], lang);
      const c = s.current;
      return {
        range,
        shipper: {
          stats: shipperStats(s),
          spendByLane,
          carrierOnTime: {
            pickupsMeasured: c.pickups_measured,
            onTimePickupPct: pct(c.pickups_on_time, c.pickups_measured),
            deliveriesMeasured: c.deliveries_measured,
            onTimeDeliveryPct: pct(c.deliveries_on_time, c.deliveries_measured),
          },
        },
        carrier: { offers: offerStats(s), popularRoutes, topLanes, revenue: rev },
      };
    },
    /**
     * Build the dashboards from the outbox's history: replays DASHBOARD_EVENT_TYPES through the
     * handler in publish order, skipping events it took. Returns the events counted in.
     */
    backfill: (batchSize?: number) => replayEvents(db, dashboardsHandler(deps.sources), DASHBOARD_EVENT_TYPES, batchSize),
  };
}

export type DashboardsService = ReturnType<typeof createDashboardsService>;
