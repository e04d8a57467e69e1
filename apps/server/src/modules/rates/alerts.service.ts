import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import {
  RATE_ALERTS_MAX,
  isEvent,
  type CreateRateAlertBody,
  type Language,
  type RateAlert,
  type RateAlertDirection,
  type RateAlertUnit,
  type UpdateRateAlertBody,
} from '@masar/shared';
import type { Db } from '../../db/client.ts';
import type { EmailGateway } from '../../gateways/email/email.ts';
import { AppError, dbErrorCode } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { lockAccountCap } from '../../lib/locks.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { publish, type EventHandler } from '../events/events.service.ts';
import * as repo from './alerts.repository.ts';
import { riyadhDay } from './forecast.service.ts';

dayjs.extend(utc);

const toAlert = (r: repo.AlertRow): RateAlert => ({
  id: r.id,
  origin: { id: r.originCityId, nameEn: r.originEn, nameAr: r.originAr },
  destination: { id: r.destinationCityId, nameEn: r.destinationEn, nameAr: r.destinationAr },
  equipment: r.equipment === '*' ? null : r.equipment,
  kind: r.kind,
  direction: r.direction,
  threshold: Number(r.threshold),
  unit: r.unit,
  email: r.email,
  active: r.active,
  createdAt: r.createdAt.toISOString(),
  lastTriggeredAt: r.lastTriggeredAt?.toISOString() ?? null,
});

/**
 * Does a change of the lane's average cross an alert's threshold? `previous`, `current`: average
 * SAR per trip of the two windows. Up: current − previous ≥ threshold (SAR) or ≥ threshold % of
 * previous; down: the same downwards; both: either. No change never crosses. Pure (tests, docs).
 */
export function crosses(alert: { direction: RateAlertDirection; threshold: number; unit: RateAlertUnit }, previous: number, current: number): boolean {
  const change = current - previous;
  if (change === 0 || previous <= 0) return false;
  if (alert.direction === 'up' && change < 0) return false;
  if (alert.direction === 'down' && change > 0) return false;
  const size = alert.unit === 'pct' ? (Math.abs(change) / previous) * 100 : Math.abs(change);
  // compare in hundredths: 10 % of 2000.00 is exactly 200.00 SAR
  return Math.round(size * 100) >= Math.round(alert.threshold * 100);
}

/**
 * Rate-change alerts (issue 20; spec §2 /rate-change-alerts; spec §3 "saved search and rate-change
 * alert: lane, increment or decrement threshold, alert e-mail; rate alert window 24 hours").
 * An account keeps at most RATE_ALERTS_MAX (20) alerts (counted under its cap lock, so 30 parallel
 * creates leave 20). `checkDue` (the hourly job) compares each active alert's lane average of the
 * last complete Riyadh day with the day before and records one firing per crossing, publishing
 * `rate.alert_triggered` in the same transaction; the e-mail leaves from `rateAlertEmailHandler`.
 */
/**
 * An alert identical to another of the account's (lane, equipment, kind, direction, threshold,
 * unit) breaks the unique index (migration 0135), so parallel creates leave one: a change that
 * would make one is DUPLICATE_RATE_ALERT (409; issue 46). Any other error passes through.
 */
function duplicateAsConflict(e: unknown): never {
  if (dbErrorCode(e) === '23505') throw new AppError('DUPLICATE_RATE_ALERT');
  throw e;
}

/** The row of a new alert `id` of account `accountId` (threshold as numeric text, no equipment as '*'). */
const alertRow = (id: string, accountId: string, body: CreateRateAlertBody) => ({
  id,
  accountId,
  originCityId: body.originCityId,
  destinationCityId: body.destinationCityId,
  equipment: body.equipment ? body.equipment : '*',
  kind: body.kind,
  direction: body.direction,
  threshold: body.threshold.toFixed(2),
  unit: body.unit,
  email: body.email,
});

export function createAlertsService(deps: { db: Db; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    async list(user: CurrentUser): Promise<RateAlert[]> {
      return (await repo.listAlerts(db, user.id)).map(toAlert);
    },

    /** Create an alert: INVALID_CITY (400), LIMIT_REACHED (409) at the cap, DUPLICATE_RATE_ALERT (409: duplicateAsConflict). */
    async create(user: CurrentUser, body: CreateRateAlertBody): Promise<RateAlert> {
      const cities = await repo.existingCityIds(db, [body.originCityId, body.destinationCityId]);
      if (!cities.has(body.originCityId) || !cities.has(body.destinationCityId)) throw new AppError('INVALID_CITY');
      const id = newId();
      await db.transaction(async (tx) => {
        await lockAccountCap(tx, 'rate-alerts', user.id);
        if ((await repo.countAlerts(tx, user.id)) >= RATE_ALERTS_MAX) throw new AppError('LIMIT_REACHED');
        if (!(await repo.insertAlert(tx, alertRow(id, user.id, body)))) throw new AppError('DUPLICATE_RATE_ALERT');
      });
      return toAlert((await repo.alertById(db, id))!);
    },

    /** Pause/resume or change an alert of mine (404 when it is not mine). */
    async update(user: CurrentUser, id: string, body: UpdateRateAlertBody): Promise<RateAlert> {
      const current = await repo.alertById(db, id);
      if (!current || current.accountId !== user.id) throw new AppError('NOT_FOUND');
      // a percentage threshold stays ≤ 1000 % when only the unit changes
      if (body.unit === 'pct' && body.threshold === undefined && current.threshold > 1000) {
        throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'threshold', message: 'v.rateAlertThreshold' }] });
      }
      const set = {
        ...(body.active !== undefined ? { active: body.active } : {}),
        ...(body.direction ? { direction: body.direction } : {}),
        ...(body.threshold !== undefined ? { threshold: body.threshold.toFixed(2) } : {}),
        ...(body.unit ? { unit: body.unit } : {}),
        ...(body.email ? { email: body.email } : {}),
      };
      if (!(await repo.updateAlert(db, user.id, id, set).catch(duplicateAsConflict))) throw new AppError('NOT_FOUND');
      return toAlert((await repo.alertById(db, id))!);
    },

    async remove(user: CurrentUser, id: string): Promise<void> {
      if (!(await repo.deleteAlert(db, user.id, id))) throw new AppError('NOT_FOUND');
    },

    /**
     * The hourly check (job `rates.alerts`). The window: the last complete Riyadh day (yesterday;
     * window key = its date) against the day before, each the lane's average SAR per trip from
     * lane_rate_daily (city→city, the alert's equipment or '*', its kind); a lane without records on
     * either day is not compared. A crossing (see `crosses`) inserts a firing (unique per alert and
     * window) and publishes `rate.alert_triggered` in that transaction: it fires once per window,
     * however often or concurrently the job runs. Running hourly picks up records booked late for
     * yesterday and new alerts within the hour. Answers how many fired.
     */
    async checkDue(): Promise<number> {
      const currentDay = dayjs.utc(riyadhDay(now())).subtract(1, 'day').format('YYYY-MM-DD');
      const previousDay = dayjs.utc(currentDay).subtract(1, 'day').format('YYYY-MM-DD');
      let fired = 0;
      for (const w of await repo.activeAlertWindows(db, previousDay, currentDay)) {
        if (w.previousAvg == null || w.currentAvg == null) continue;
        const previous = Math.round(w.previousAvg * 100) / 100;
        const current = Math.round(w.currentAvg * 100) / 100;
        if (!crosses(w, previous, current)) continue;
        const changePct = (((current - previous) / previous) * 100).toFixed(2);
        const firingId = newId();
        const ok = await db.transaction(async (tx) => {
          const inserted = await repo.insertFiring(tx, {
            id: firingId,
            alertId: w.id,
            windowKey: currentDay,
            previousAvgSar: previous.toFixed(2),
            currentAvgSar: current.toFixed(2),
            changePct,
          });
          if (!inserted) return false;
          await publish(tx, {
            type: 'rate.alert_triggered',
            aggregateType: 'account',
            aggregateId: w.accountId,
            actorId: null,
            data: {
              accountId: w.accountId,
              alertId: w.id,
              firingId,
              windowKey: currentDay,
              lane: { originCityId: w.originCityId, destinationCityId: w.destinationCityId, equipment: w.equipment, kind: w.kind },
              previousAvgSar: previous.toFixed(2),
              currentAvgSar: current.toFixed(2),
              changePct,
            },
          });
          return true;
        });
        if (ok) fired++;
      }
      return fired;
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;

/** The alert e-mail in the account's language (numbers and dates in its digits). */
function alertEmail(
  f: repo.FiringForEmail,
  d: { previousAvgSar: string; currentAvgSar: string; changePct: string; windowKey: string },
  lang: Language,
  publicUrl: string,
) {
  const up = Number(d.changePct) > 0;
  const num = (v: number, decimals: number) =>
    new Intl.NumberFormat(lang === 'ar' ? 'ar-SA' : 'en-US', {
      numberingSystem: lang === 'ar' ? 'arab' : 'latn',
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(v);
  const pct = num(Math.abs(Number(d.changePct)), 1);
  const sar = (v: string) => num(Number(v), 2);
  const day = new Intl.DateTimeFormat(lang === 'ar' ? 'ar-SA-u-ca-gregory-nu-arab' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${d.windowKey}T00:00:00Z`),
  );
  const equipment = f.equipment === '*' ? '' : ` (${f.equipment})`;
  if (lang === 'ar') {
    const lane = `${f.originAr} إلى ${f.destinationAr}`;
    return {
      subject: `تنبيه سعر: ${lane} ${up ? 'ارتفع' : 'انخفض'} ${pct}٪`,
      text: [
        'مرحباً،',
        '',
        `${up ? 'ارتفع' : 'انخفض'} متوسط سعر ${f.kind === 'spot' ? 'السوق الفوري' : 'العقود'} على المسار من ${lane}${equipment} بنسبة ${pct}٪ خلال آخر ${num(24, 0)} ساعة:`,
        `اليوم السابق: ${sar(d.previousAvgSar)} ريال للرحلة`,
        `${day}: ${sar(d.currentAvgSar)} ريال للرحلة`,
        '',
        `تنبيهاتك وتوقعات الأسعار: ${publicUrl}/rate-forecast`,
        '',
        'فريق مسار',
      ].join('\n'),
    };
  }
  const lane = `${f.originEn} → ${f.destinationEn}`;
  return {
    subject: `Rate alert: ${lane} ${up ? 'up' : 'down'} ${pct} %`,
    text: [
      'Hello,',
      '',
      `The average ${f.kind} rate on ${lane}${equipment} went ${up ? 'up' : 'down'} ${pct} % over the last 24 hours:`,
      `Day before: SAR ${sar(d.previousAvgSar)} per trip`,
      `${day}: SAR ${sar(d.currentAvgSar)} per trip`,
      '',
      `Your alerts and the rate forecast: ${publicUrl}/rate-forecast`,
      '',
      'The Masar team',
    ].join('\n'),
  };
}

/**
 * The outbox handler of `rate.alert_triggered`: sends the alert e-mail (the alert's address, the
 * account's language) once per firing — the firing row is locked and stamped `emailed_at` in the
 * drain's transaction, so a redelivered event or a second drain sends nothing twice. A failed send
 * is recorded in `last_error` and logged, never thrown (a throwing handler would hold the outbox).
 */
export function rateAlertEmailHandler(deps: { email: EmailGateway; publicUrl: string; log: { error(o: unknown, m: string): void } }): EventHandler {
  return {
    name: 'rate-alert-emails',
    async handle(tx, e) {
      if (!isEvent(e, 'rate.alert_triggered')) return;
      const f = await repo.firingForUpdate(tx, e.data.firingId);
      if (!f || f.emailedAt) return;
      const lang: Language = f.language === 'ar' ? 'ar' : 'en';
      try {
        await deps.email.send({ to: f.email, ...alertEmail(f, e.data, lang, deps.publicUrl) });
        await repo.recordEmail(tx, f.id, { emailedAt: new Date(), lastError: null });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        deps.log.error({ err: message, firingId: f.id }, 'rate alert: e-mail failed');
        await repo.recordEmail(tx, f.id, { lastError: message.slice(0, 500) });
      }
    },
  };
}
