import type { Container } from '../container.ts';
import { refreshDemoLoads } from '../db/seed/demo-loads.ts';
import { seedDemoAccounts } from '../db/seed/demo.ts';
import { cleanupAuth } from '../modules/auth/auth.service.ts';
import { onPublish } from '../modules/events/events.service.ts';

/**
 * The jobs of the product (issue 6), one place. Cron times are Asia/Riyadh; a cron job runs once
 * per slot across all instances (pg-boss schedules are singletons). Handlers are idempotent:
 * a job may run again after its worker died.
 */
export function registerJobs(c: Pick<Container, 'jobs' | 'services' | 'config' | 'db'>) {
  const { jobs, services, config, db } = c;

  // Posted loads past their expiry become Expired in the row (and leave the board's partial
  // indexes), with a load.expired event each. Reads already show them expired in between.
  jobs.define({ name: 'loads.expire', cron: '* * * * *', retryLimit: 2, handler: async () => void (await services.loads.expireDue()) });

  // A CSV import, resumable from its committed cursor; a worker killed mid-import is noticed
  // after expireInSeconds and the job runs again on any instance.
  jobs.define<{ logId: string }>({
    name: 'csv.import',
    retryLimit: 10,
    retryDelay: 2,
    expireInSeconds: 120,
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

  // Used and expired OTPs, ended sessions, idempotency keys past their 24 h.
  jobs.define({
    name: 'cleanup.daily',
    cron: '30 3 * * *',
    handler: async () => {
      await cleanupAuth(db);
      await services.idempotency.deleteExpired();
    },
  });

  // The demo board's dates move forward every night, so a long-running demo never goes stale.
  if (config.DEMO_SEED) {
    jobs.define({
      name: 'demo.refresh',
      cron: '5 0 * * *',
      handler: async () => {
        const ids = await seedDemoAccounts(db);
        await refreshDemoLoads(db, [ids[1], ids[3]]);
      },
    });
  }

  // Events: the outbox drain, polled and woken right after a publish in this instance.
  jobs.ticker({ name: 'outbox', intervalMs: config.OUTBOX_POLL_MS, tick: () => services.events.drainAll() });
  onPublish(() => setTimeout(() => jobs.wake('outbox'), 5));
}
