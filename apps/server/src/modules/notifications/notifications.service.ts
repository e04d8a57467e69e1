import {
  defaultNotificationPreferences,
  NOTIFICATION_CATEGORIES,
  SMS_CATEGORIES,
  type AccountType,
  type Language,
  type MarkNotificationsBody,
  type Notification,
  type NotificationCategory,
  type NotificationPreferences,
} from '@masar/shared';
import type { Db } from '../../db/client.ts';
import type { EmailGateway } from '../../gateways/email/email.ts';
import { newId } from '../../lib/ids.ts';
import { recipientsOf, type EventHandler } from '../events/events.service.ts';
import { linkFor, NOTIFICATION_CATALOGUE, PARAM_FIELDS } from './notifications.catalogue.ts';
import { notificationEmail } from './notifications.email.ts';
import * as repo from './notifications.repository.ts';
import * as push from './push.repository.ts';

/*
 * Stored notifications (issue 21 "Notifications"; spec §7 /user/notification;
 * docs/notifications.md). The outbox handler `notifications` turns the events of the catalogue
 * into one row per recipient user (the parties of the side the catalogue names and their team
 * members; never the actor), and queues e-mails for the categories whose e-mail switch is on.
 * The flush job sends the due e-mails, one per (user, category) batch (digest, quiet hours).
 * Pushes are queued the same way for the users with push on and a subscribed browser, and sent
 * by the push sender (notifications.push.ts). The MQTT publisher will be a further consumer.
 */

const MINUTE_MS = 60_000;
/** Saudi Arabia keeps UTC+3 all year: quiet hours are Riyadh wall-clock times. */
const RIYADH_OFFSET_MIN = 180;

/** The stored preferences of a user as the API shape, over the defaults (a category added later starts from its default). */
function preferencesFrom(row: repo.PreferencesRow | undefined): NotificationPreferences {
  const d = defaultNotificationPreferences();
  if (!row) return d;
  const channels = Object.fromEntries(
    NOTIFICATION_CATEGORIES.map((c) => [c, { ...d.channels[c], ...(row.channels[c] ?? {}) }]),
  ) as NotificationPreferences['channels'];
  return { channels, quietFrom: row.quiet_from, quietTo: row.quiet_to, digestMinutes: row.digest_minutes };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * The first instant at or after `t` outside the quiet hours `from`–`to` (Riyadh "HH:MM"; a window
 * may run past midnight, e.g. 22:00–07:00; equal ends or none: no quiet hours). Within the window
 * the answer is its end (to the minute).
 */
export function outsideQuietHours(t: Date, from: string | null, to: string | null): Date {
  if (!from || !to || from === to) return t;
  const local = (Math.floor(t.getTime() / MINUTE_MS) + RIYADH_OFFSET_MIN) % 1440;
  const f = minutesOf(from);
  const e = minutesOf(to);
  const quiet = f < e ? local >= f && local < e : local >= f || local < e;
  if (!quiet) return t;
  const wait = (e - local + 1440) % 1440;
  return new Date((Math.floor(t.getTime() / MINUTE_MS) + wait) * MINUTE_MS);
}

/**
 * When an e-mail of a new notification is due: with the pending batch of its (user, category) if
 * there is one; else now, or the digest interval after the last e-mail of the category when that
 * is later — and then out of the quiet hours.
 */
export function emailDueAt(now: Date, state: { lastSent: Date | null; pendingDue: Date | null } | undefined, p: NotificationPreferences): Date {
  if (state?.pendingDue) return state.pendingDue;
  const earliest = state?.lastSent ? new Date(Math.max(now.getTime(), state.lastSent.getTime() + p.digestMinutes * MINUTE_MS)) : now;
  return outsideQuietHours(earliest, p.quietFrom, p.quietTo);
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** The text params of an event: the PARAM_FIELDS present as strings or numbers. */
function paramsOf(data: Record<string, unknown>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const k of PARAM_FIELDS) {
    const v = data[k];
    if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) out[k] = v;
  }
  return out;
}

/**
 * The outbox handler `notifications` (registered after the account record): for an event of the
 * catalogue, a row per recipient user whose category has in-app on, and a queued e-mail per
 * recipient whose category has e-mail on, and a queued push per recipient whose category has push
 * on and who has a subscribed browser for that account (due after the quiet hours). Recipients: the party accounts of the sides the
 * catalogue names (events.service recipientsOf) and their team members, minus the event's actor.
 * Idempotent: a redelivered event inserts nothing (unique (event_id, user_id)); the counters move
 * only by what was inserted.
 */
export const notificationsHandler: EventHandler = {
  name: 'notifications',
  async handle(tx, e) {
    const entry = NOTIFICATION_CATALOGUE[e.type];
    if (!entry) return;
    const data = e.data;
    const sides = typeof entry.to === 'function' ? entry.to(data) : entry.to;
    const r = await recipientsOf(tx, e);
    const owners = r.accounts.filter((a) => a.as !== 'broker' && sides.includes(a.as)).map((a) => a.userId);
    const targets = new Map<string, string>(); // user → account
    for (const o of owners) targets.set(o, o);
    for (const m of r.members) if (owners.includes(m.ownerId) && !targets.has(m.userId)) targets.set(m.userId, m.ownerId);
    if (e.actorId) targets.delete(e.actorId);
    if (!targets.size) return;

    const userIds = [...targets.keys()];
    const info = await repo.usersInfo(tx, [...new Set([...userIds, ...targets.values()])]);
    const prefs = await repo.preferencesOf(tx, userIds);
    const loadId = str(data.loadId);
    const referenceId = str(data.referenceId);
    const params = paramsOf(data);
    const rows: repo.NewNotification[] = [];
    const emailTo: { userId: string; link: string; p: NotificationPreferences }[] = [];
    const pushTo: push.NewPush[] = [];
    const subscribed = await push.subscribedPairs(tx, userIds);
    const now = new Date();
    for (const [userId, accountId] of targets) {
      const owner = info.get(accountId);
      if (!owner) continue;
      const p = preferencesFrom(prefs.get(userId));
      const sw = p.channels[entry.category];
      const link = linkFor(entry.screen, owner.account_type as AccountType, loadId);
      if (sw.inApp) rows.push({ id: newId(), userId, accountId, type: e.type, category: entry.category, eventId: e.id, loadId, referenceId, params, link });
      if (sw.email && !entry.ownEmail && info.get(userId)?.email) emailTo.push({ userId, link, p });
      if (sw.push && subscribed.has(`${userId}:${accountId}`))
        pushTo.push({
          id: newId(),
          userId,
          accountId,
          category: entry.category,
          type: e.type,
          eventId: e.id,
          loadId,
          referenceId,
          params,
          link,
          dueAt: outsideQuietHours(now, p.quietFrom, p.quietTo),
        });
    }
    await repo.insertNotifications(tx, rows);
    await push.enqueuePushes(tx, pushTo);
    if (emailTo.length) {
      const state = await repo.emailStateOf(
        tx,
        emailTo.map((x) => x.userId),
        entry.category,
      );
      await repo.enqueueEmails(
        tx,
        emailTo.map((x) => ({
          id: newId(),
          userId: x.userId,
          category: entry.category,
          type: e.type,
          eventId: e.id,
          referenceId,
          params,
          link: x.link,
          dueAt: emailDueAt(now, state.get(x.userId), x.p),
        })),
      );
    }
  },
};

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
function toApi(r: repo.NotificationRow): Notification {
  return {
    id: r.id,
    type: r.type,
    category: r.category as NotificationCategory,
    loadId: r.load_id,
    referenceId: r.reference_id,
    params: r.params ?? {},
    link: r.link,
    createdAt: iso(r.created_at)!,
    readAt: iso(r.read_at),
  };
}

/**
 * The notifications of the signed-in user (a team member reads their own, not the owner's):
 * list, unread count, mark read, preferences; and the e-mail flush the job runs.
 */
export function createNotificationsService(deps: {
  db: Db;
  email: EmailGateway;
  publicUrl: string;
  log: { error(o: unknown, m: string): void };
  /** Days a notification is kept (NOTIFICATION_RETENTION_DAYS). */
  retentionDays?: number;
}) {
  const { db } = deps;
  return {
    /**
     * Daily: forget notifications created more than `retentionDays` ago (default 180), read or
     * not, in batches of 5,000 (each its own transaction: a primary-key range, since ids are
     * UUIDv7), taking unread ones off the counters. Returns how many were deleted.
     */
    async cleanup(now = new Date()): Promise<number> {
      const before = new Date(now.getTime() - (deps.retentionDays ?? 180) * 86_400_000);
      let total = 0;
      for (;;) {
        const n = await db.transaction((tx) => repo.deleteNotificationsBefore(tx, before, 5_000));
        total += n;
        if (n < 5_000) return total;
      }
    },

    /**
     * A page of my notifications, newest first: `limit` (default 20) after `cursor`; `unreadOnly`,
     * `category` filters. `nextCursor` is the last id when the page is full, else null; `unread`
     * the counter.
     */
    async list(userId: string, q: { cursor?: string; unreadOnly: boolean; category?: NotificationCategory; limit: number }) {
      const rows = await repo.listOf(db, userId, q);
      const items = rows.map(toApi);
      return { items, nextCursor: rows.length === q.limit ? rows[rows.length - 1].id : null, unread: await repo.unreadOf(db, userId) };
    },

    /** My unread count (one primary-key read of the counter). */
    unreadCount: (userId: string) => repo.unreadOf(db, userId),

    /** Mark mine read: `{ids}` (others' ids are ignored) or `{all: true}`. Returns how many were marked and the unread count after. */
    mark(userId: string, body: MarkNotificationsBody) {
      return db.transaction((tx) => repo.markRead(tx, userId, 'all' in body ? 'all' : body.ids));
    },

    /** My preferences (the defaults when never saved). */
    async preferences(userId: string): Promise<NotificationPreferences> {
      return preferencesFrom((await repo.preferencesOf(db, [userId])).get(userId));
    },

    /** Save my preferences (whole). SMS stays off for categories that offer none (SMS_CATEGORIES). */
    async savePreferences(userId: string, p: NotificationPreferences): Promise<NotificationPreferences> {
      const channels = Object.fromEntries(
        NOTIFICATION_CATEGORIES.map((c) => [c, { ...p.channels[c], sms: SMS_CATEGORIES.includes(c) ? p.channels[c].sms : false }]),
      ) as NotificationPreferences['channels'];
      await repo.upsertPreferences(db, userId, { ...p, channels });
      return this.preferences(userId);
    },

    /**
     * Send the due e-mails (the job `notifications.email`, every minute): each (user, category)
     * batch with an e-mail due by `now` (the clock; later in tests) goes out as one message carrying every unsent e-mail of the batch,
     * then is stamped sent (one transaction per batch; rows another flusher holds are skipped).
     * A failed send is logged and left for the next run. Sent e-mails older than two days are
     * pruned first. Returns how many messages were sent.
     */
    async flushEmails(now = new Date(), max = 200): Promise<number> {
      // what the digest no longer needs (its interval is at most a day): kept two days, then pruned
      await repo.pruneSentEmails(db, new Date(Date.now() - 2 * 86_400_000));
      const batches = await repo.dueEmailBatches(db, now, max);
      let sent = 0;
      for (const b of batches) {
        try {
          const ok = await db.transaction(async (tx) => {
            const rows = await repo.lockBatch(tx, b.user_id, b.category);
            if (!rows.length) return false;
            const user = (await repo.usersInfo(tx, [b.user_id])).get(b.user_id);
            if (user?.email) {
              const lang: Language = user.language === 'ar' ? 'ar' : 'en';
              const m = notificationEmail(
                b.category,
                rows.map((r) => ({ type: r.type, referenceId: r.reference_id, link: r.link })),
                lang,
                deps.publicUrl,
              );
              await deps.email.send({ to: user.email, ...m });
            }
            await repo.markEmailsSent(
              tx,
              rows.map((r) => r.id),
              new Date(),
            );
            return Boolean(user?.email);
          });
          if (ok) sent++;
        } catch (err) {
          deps.log.error({ err: err instanceof Error ? err.message : String(err), userId: b.user_id, category: b.category }, 'notifications: e-mail failed');
        }
      }
      return sent;
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
