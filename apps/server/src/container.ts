import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createGateways, type Gateways } from './gateways/index.ts';
import { storageFor } from './gateways/storage/index.ts';
import { registerJobs } from './jobs/definitions.ts';
import { createJobRunner } from './jobs/runner.ts';
import { createAuthService, createSessionChecks } from './modules/auth/auth.service.ts';
import { createCsvService } from './modules/csv/csv.service.ts';
import { createEventDelivery, timelineHandler } from './modules/events/events.service.ts';
import { createFilesService } from './modules/files/files.service.ts';
import { createFleetService } from './modules/fleet/fleet.service.ts';
import { createIdempotencyService } from './modules/idempotency/idempotency.service.ts';
import { createLoadsService } from './modules/loads/loads.service.ts';
import { createOffersService } from './modules/offers/offers.service.ts';
import { createVendorsService } from './modules/vendors/vendors.service.ts';

/** The little a container needs to log (pino's logger, or the console in the CLI). */
export interface Log {
  error(obj: unknown, msg: string): void;
  info(obj: unknown, msg: string): void;
}

/**
 * The composition root (issue 6, DESIGN §2): repositories are modules of functions over the
 * database; the services and gateways are built here, once. Routes, the admin CLI, the demo
 * seed, tests and the job worker all take them from the container; nothing else constructs a
 * service.
 */
export function createContainer(opts: { config: Config; database: Database; gateways?: Gateways; log?: Log }) {
  const { config, database } = opts;
  const db = database.db;
  const log: Log = opts.log ?? { error: (o, m) => console.error(m, o), info: () => undefined };
  const gateways = opts.gateways ?? createGateways(config);
  const storage = storageFor(config);

  const auth = createAuthService({ db, config, sms: gateways.sms });
  const sessions = createSessionChecks(db);
  const idempotency = createIdempotencyService(db);
  const loads = createLoadsService({ db, config, routing: gateways.routing });
  const offers = createOffersService({ db });
  const fleet = createFleetService({ db, jwtSecret: config.jwtSecret });
  const vendors = createVendorsService({ db, jwtSecret: config.jwtSecret });
  const files = createFilesService({ db, storage });
  const events = createEventDelivery({ db, handlers: [timelineHandler], log });
  const jobs = createJobRunner({ database, log, work: config.JOBS, pollingIntervalSeconds: config.JOBS_POLL_SECONDS });
  const csv = createCsvService({
    db,
    fleet,
    vendors,
    loads,
    log,
    currentUser: (id) => sessions.currentUser(id),
    enqueue: async (logId) => {
      await jobs.send('csv.import', { logId }, { singletonKey: logId });
    },
  });

  const container = {
    config,
    database,
    db,
    log,
    gateways,
    storage,
    services: { auth, sessions, idempotency, loads, offers, fleet, vendors, files, csv, events },
    jobs,
  };
  registerJobs(container);
  return container;
}

export type Container = ReturnType<typeof createContainer>;
