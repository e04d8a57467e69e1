import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import { OUTBOX_CHANNEL } from '../modules/events/events.repository.ts';
import type { JobRunner } from './runner.ts';
import type { AccountAdmin } from '../modules/auth/account-admin.service.ts';
import { onDeliveriesQueued, type WebhooksService } from '../modules/webhooks/webhooks.service.ts';
import type { BillingService } from '../modules/billing/billing.service.ts';
import type { BayanService } from '../modules/bayan/bayan.service.ts';
import type { CsvService } from '../modules/csv/csv.service.ts';
import type { EventDelivery } from '../modules/events/events.service.ts';
import type { IdempotencyService } from '../modules/idempotency/idempotency.service.ts';
import type { LoadsService } from '../modules/loads/loads.service.ts';
import type { TrucksService } from '../modules/trucks/trucks.service.ts';
import type { TendersService } from '../modules/tenders/tenders.service.ts';
import type { NotificationsService } from '../modules/notifications/notifications.service.ts';
import type { PushService } from '../modules/notifications/notifications.push.ts';
import type { AlertsService } from '../modules/rates/alerts.service.ts';
import type { FilesService } from '../modules/files/files.service.ts';
import type { CallsService } from '../modules/calls/calls.service.ts';
import type { EscrowService } from '../modules/escrow/escrow.service.ts';
import { refreshDemoLoads } from '../seed/demo-loads.ts';
import { seedDemoAccounts } from '../seed/demo.ts';
import { cleanupAuth } from '../modules/auth/auth.service.ts';

/**
 * The jobs of the product (issue 6), one place. Cron times are Asia/Riyadh; a cron job runs once
 * per slot across all instances (pg-boss schedules are singletons). Handlers are idempotent:
 * a job may run again after its worker died.
 */
export interface JobDeps {
  jobs: JobRunner;
  config: Config;
  db: Db;
  database: Database;
  services: {
    billing: BillingService;
    bayan: BayanService;
    webhooks: WebhooksService;
    accounts: AccountAdmin;
    loads: LoadsService;
    csv: CsvService;
    idempotency: IdempotencyService;
    events: EventDelivery;
    trucks: TrucksService;
    tenders: TendersService;
    notifications: NotificationsService;
    push: PushService;
    rateAlerts: AlertsService;
    files: FilesService;
    calls: CallsService;
    escrow: EscrowService;
  };
}

export function registerJobs(c: JobDeps) {
  const { jobs, services, config, db, database } = c;

  // Posted loads past their expiry become Expired in the row (and leave the board's partial
  // indexes), with a load.expired event each. Reads already show them expired in between.
  jobs.define({ name: 'loads.expire', cron: '* * * * *', retryLimit: 2, handler: async () => void (await services.loads.expireDue()) });
  // Posted trucks whose availability window ended become Expired (truck.expired each; issue 19).
  jobs.define({ name: 'trucks.expire', cron: '* * * * *', retryLimit: 2, handler: async () => void (await services.trucks.expireDue()) });

  // Tenders (issue 19 "Tendering"): open tenders past their deadline close (posting the load to
  // the board when asked); waterfall turns that ended unanswered expire and the next carrier is invited.
  jobs.define({ name: 'tenders.due', cron: '* * * * *', retryLimit: 2, handler: async () => void (await services.tenders.processDue()) });

  // Notification e-mails (issue 21): each (user, category) batch due by now goes out as one
  // message (digest interval and quiet hours decided when queued; notifications.service.ts).
  jobs.define({ name: 'notifications.email', cron: '* * * * *', retryLimit: 2, handler: async () => void (await services.notifications.flushEmails()) });
  // Rate-change alerts (issue 20): every hour, each active alert's lane average of the last
  // complete Riyadh day against the day before; a crossing fires once per alert and window.
  jobs.define({ name: 'rates.alerts', cron: '11 * * * *', retryLimit: 2, handler: async () => void (await services.rateAlerts.checkDue()) });

  // Calls (issue 21): an unanswered call rings at most CALL_RING_SECONDS (45 s). Each call queues
  // its own check for just after its ring time; the minute sweep catches a check that was lost.
  // Either marks it missed (call.missed → the callee's "missed call" notification).
  jobs.define<{ id: string }>({ name: 'calls.expire', retryLimit: 2, handler: async () => void (await services.calls.expireDue()) });
  jobs.define({ name: 'calls.sweep', cron: '* * * * *', retryLimit: 2, handler: async () => void (await services.calls.expireDue()) });

  // Subscriptions: trials and cancelled plans end with their period; renewing plans are charged
  // from a day before their end, retried 6 h apart, three times (billing.service renewDue).
  jobs.define({ name: 'billing.renew', cron: '7 * * * *', retryLimit: 2, handler: async () => void (await services.billing.renewDue()) });

  // Card checkouts a crash left `processing` (issue 22): settled with the acquirer (same intent
  // id, so never a second charge) once CHECKOUT_RECONCILE_SECONDS old, instead of blocking the
  // account's next checkout (CHECKOUT_IN_PROGRESS) for CHECKOUT_PENDING_MINUTES.
  jobs.define({
    name: 'billing.reconcile',
    cron: '* * * * *',
    retryLimit: 2,
    handler: async () => void (await services.billing.reconcileStale(config.CHECKOUT_RECONCILE_SECONDS)),
  });

  // Bayan trips the service did not answer for (shipment pending_bayan): retried 15 s, 30 s,
  // 1 min … apart (backoff) for about a day; the sweep re-queues a pending trip whose job was lost. Each creation also queues its job
  // to start once the trip would be stale (BAYAN_STALE_SECONDS): a creation cut by a crash resumes.
  jobs.define<{ id: string }>({
    name: 'bayan.create',
    retryLimit: 12,
    retryDelay: 15,
    retryBackoff: true,
    handler: async ({ id }) => void (await services.bayan.retryPending(id)),
  });
  // every minute (issue 22): a creation cut by a crash is picked up within a minute or so
  jobs.define({ name: 'bayan.sweep', cron: '* * * * *', handler: async () => void (await services.bayan.sweepPending()) });

  // A CSV import, resumable from its committed cursor; a worker killed mid-import is noticed
  // after expireInSeconds and the job runs again on any instance.
  jobs.define<{ logId: string }>({
    name: 'csv.import',
    retryLimit: 10,
    retryDelay: 2,
    expireInSeconds: config.CSV_IMPORT_EXPIRE_SECONDS,
    handler: async ({ logId }, signal) => services.csv.processImport(logId, signal),
  });
  // Safety net: an import whose job was never queued (the process died between the log and
  // the send) is queued again; singletonKey keeps it to one job per log.
  jobs.define({
    name: 'csv.sweep',
    cron: '*/5 * * * *',
    handler: async () => {
      for (const id of await services.csv.processingLogIds()) await jobs.send('csv.import', { logId: id }, { singletonKey: id });
    },
  });

  // Used and expired OTPs, ended sessions, idempotency keys past their 24 h, webhook deliveries
  // finished more than 30 days ago, notifications older than NOTIFICATION_RETENTION_DAYS.
  jobs.define({
    name: 'cleanup.daily',
    cron: '30 3 * * *',
    handler: async () => {
      await cleanupAuth(db);
      await services.idempotency.deleteExpired();
      await services.webhooks.cleanup();
      await services.notifications.cleanup();
    },
  });

  // Chat uploads never put on a message (issue 21; docs/chat.md "Attachments"): removed 24 h
  // after upload, row and bytes, read from the partial index of unsent uploads (migration 0128).
  jobs.define({
    name: 'files.unsent',
    cron: '17 * * * *',
    retryLimit: 2,
    handler: async () => void (await services.files.removeUnsentChatAttachments({ olderThanHours: 24 })),
  });

  // The demo board's dates move forward every night, so a long-running demo never goes stale.
  if (config.DEMO_SEED) {
    jobs.define({
      name: 'demo.refresh',
      cron: '5 0 * * *',
      handler: async () => {
        const ids = await seedDemoAccounts(services.accounts);
        await refreshDemoLoads(services.loads, [ids[1], ids[3]]);
      },
    });
  }

  // Webhooks: the sender, woken when deliveries are queued or resent, else every second (retries).
  jobs.ticker({ name: 'webhooks', intervalMs: 1000, tick: () => services.webhooks.deliverDue() });
  onDeliveriesQueued(() => jobs.wake('webhooks'));

  // Web push (issue 21): the sender, woken after the drain queued pushes, else every 5 s (pushes
  // held by quiet hours, retries). Claims keep two instances apart.
  jobs.ticker({ name: 'push', intervalMs: 5000, tick: () => services.push.sendDue() });

  // Events: the outbox drain, woken when a publishing transaction commits — its NOTIFY on the
  // outbox channel reaches every working instance (PostgreSQL LISTEN; PGlite in process) — and
  // polled every OUTBOX_POLL_MS as a safety net. Delivered events may have queued webhook
  // deliveries and pushes: their senders go right after the drain's commit.
  jobs.ticker({
    name: 'outbox',
    intervalMs: config.OUTBOX_POLL_MS,
    tick: async () => {
      if ((await services.events.drainAll()) > 0) {
        jobs.wake('webhooks');
        jobs.wake('push');
      }
    },
  });
  let unlisten: (() => Promise<void>) | undefined;
  jobs.hook({
    start: async () => {
      unlisten = await database.listen(OUTBOX_CHANNEL, () => jobs.wake('outbox'));
    },
    stop: async () => {
      await unlisten?.();
    },
  });
}

/**
 * Payment protection (issue 50): an escrow's release, queued for the end of its dispute window
 * when its shipment completes (a run before then, or after a dispute, does nothing); the minute
 * sweep releases what is due if a job was lost (a crash between the commit and the send).
 */
export function registerPaymentJobs({ jobs, services }: Pick<JobDeps, 'jobs' | 'services'>) {
  jobs.define<{ id: string }>({ name: 'escrow.release', retryLimit: 5, handler: async ({ id }) => void (await services.escrow.release(id)) });
  jobs.define({ name: 'escrow.sweep', cron: '* * * * *', retryLimit: 2, handler: async () => void (await services.escrow.releaseDue()) });
}
