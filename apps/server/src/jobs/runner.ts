import PgBoss from 'pg-boss';
import type { Database } from '../db/client.ts';

/** A durable job: a name, what it does with its data, and how it retries. */
export interface JobDefinition<T extends object = Record<string, unknown>> {
  name: string;
  /** `signal` aborts when the runner stops: a long job may stop at a safe point and be retried. */
  handler(data: T, signal: AbortSignal): Promise<void>;
  /** Cron in Asia/Riyadh time (minute granularity): run on this schedule, once across instances. */
  cron?: string;
  retryLimit?: number;
  /** Seconds before the first retry; doubled each time with retryBackoff. */
  retryDelay?: number;
  retryBackoff?: boolean;
  /** An attempt still running after this long counts as dead (its worker was killed) and is retried. */
  expireInSeconds?: number;
}

/** A loop that runs often (the outbox drain): wakes on `wake()` or every `intervalMs`. */
export interface Ticker {
  name: string;
  intervalMs: number;
  tick(): Promise<unknown>;
}

export type JobRunner = ReturnType<typeof createJobRunner>;

/**
 * Durable background jobs (issue 6, DESIGN §1 "Jobs run on pg-boss"): pg-boss on both engines.
 * On PostgreSQL it runs over the app's pool; on embedded PGlite over the same single connection,
 * through pg-boss's bring-your-own-database adapter (`db.executeSql`) — so the job definitions,
 * retries, singleton keys and cron schedules are the same code on both, tested on both. Jobs
 * survive restarts (they are rows), a job whose worker died is retried after `expireInSeconds`,
 * and a cron schedule fires once per slot across any number of instances.
 *
 * `send` enqueues; `start` creates the queues, starts the workers (unless `work: false`: an
 * instance that only enqueues) and the tickers; `stop` lets running handlers finish.
 */
export function createJobRunner(opts: {
  database: Database;
  log?: { error(obj: unknown, msg: string): void; info?(obj: unknown, msg: string): void };
  /** How often an idle worker polls for jobs, seconds (pg-boss minimum 0.5). */
  pollingIntervalSeconds?: number;
  /** pg-boss maintenance (dead-job expiry) and cron check interval, seconds. */
  maintenanceIntervalSeconds?: number;
  work?: boolean;
}) {
  const { database, log } = opts;
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[]) => database.executeSql(text, values) },
    schema: 'pgboss',
    // completed jobs are kept a week for inspection, then pg-boss's maintenance removes them
    deleteAfterDays: 7,
    ...(opts.maintenanceIntervalSeconds
      ? {
          maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds,
          cronMonitorIntervalSeconds: Math.min(opts.maintenanceIntervalSeconds, 45),
        }
      : {}),
  });
  boss.on('error', (err) => log?.error({ err }, 'jobs: pg-boss error'));
  const defs = new Map<string, JobDefinition<never>>();
  /** This instance's worker of each queue, to wake it when this instance sends a job. */
  const workerIds = new Map<string, string>();
  const tickers: (Ticker & { timer?: NodeJS.Timeout; running?: Promise<unknown> | undefined; again?: boolean })[] = [];
  const hooks: { start(): Promise<void>; stop(): Promise<void> }[] = [];
  let started = false;
  let stopping = false;
  const stopSignal = new AbortController();

  function schedule(t: (typeof tickers)[number], delayMs: number) {
    if (stopping) return;
    clearTimeout(t.timer);
    t.timer = setTimeout(() => void run(t), delayMs);
  }
  async function run(t: (typeof tickers)[number]) {
    if (stopping) return;
    if (t.running) {
      t.again = true;
      return;
    }
    t.running = t.tick().catch((err: unknown) => log?.error({ err }, `jobs: ${t.name} failed`));
    await t.running;
    t.running = undefined;
    schedule(t, t.again ? 0 : t.intervalMs);
    t.again = false;
  }

  return {
    boss,
    /** Register a job (before start). */
    define<T extends object>(def: JobDefinition<T>) {
      defs.set(def.name, def);
    },
    /** Register a ticker (before start). */
    ticker(t: Ticker) {
      tickers.push(t);
    },
    /** Something to start with the workers and stop with them (e.g. a LISTEN that wakes a ticker); only on a working instance. */
    hook(h: { start(): Promise<void>; stop(): Promise<void> }) {
      hooks.push(h);
    },
    /**
     * Run a ticker now (e.g. right after an event was published) — only on an instance that works
     * its jobs: a `work: false` instance never drains, so it cannot take the outbox lock from
     * the instance that does.
     */
    wake(name: string) {
      const t = tickers.find((x) => x.name === name);
      if (t && started && opts.work !== false) schedule(t, 0);
    },
    /**
     * Enqueue a job. `singletonKey` makes it unique while one with the same key is queued or
     * running (e.g. one import job per CSV log).
     */
    async send(name: string, data: object, options: PgBoss.SendOptions = {}): Promise<string | null> {
      const id = await boss.send(name, data, options);
      // a job sent here starts at once when this instance works its queue (others poll)
      const worker = workerIds.get(name);
      if (id && worker && !options.startAfter) boss.notifyWorker(worker);
      return id;
    },
    async start() {
      await boss.start();
      for (const def of defs.values()) {
        await boss.createQueue(def.name, {
          name: def.name,
          retryLimit: def.retryLimit ?? 5,
          retryDelay: def.retryDelay ?? 5,
          retryBackoff: def.retryBackoff ?? true,
          expireInSeconds: def.expireInSeconds ?? 15 * 60,
        });
        if (opts.work !== false) {
          const workerId = await boss.work(def.name, { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5, batchSize: 1 }, async (jobs) => {
            for (const job of jobs) await def.handler(job.data as never, stopSignal.signal);
          });
          workerIds.set(def.name, workerId);
        }
        if (def.cron) await boss.schedule(def.name, def.cron, {}, { tz: 'Asia/Riyadh' });
      }
      started = true;
      if (opts.work !== false) {
        for (const h of hooks) await h.start();
        for (const t of tickers) schedule(t, 0);
      }
    },
    async stop() {
      stopping = true;
      stopSignal.abort();
      for (const t of tickers) clearTimeout(t.timer);
      if (started && opts.work !== false) for (const h of hooks) await h.stop().catch((err: unknown) => log?.error({ err }, 'jobs: hook stop failed'));
      await Promise.all(tickers.map((t) => t.running ?? Promise.resolve()));
      if (started) await boss.stop({ graceful: true, wait: true, timeout: 15_000 });
      started = false;
    },
  };
}
