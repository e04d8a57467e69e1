import type { Agent } from 'node:https';
import type { Config } from './config.ts';
import type { Database, Db, DbOrTx } from './db/client.ts';
import { createGateways, type Gateways } from './gateways/index.ts';
import { BAYAN_ANSWER_HELD, createBayanGateway } from './gateways/bayan/index.ts';
import type { BayanGateway } from './gateways/bayan/bayan.ts';
import { createWaslGateway } from './gateways/wasl/index.ts';
import { createRedis } from './gateways/shared-state/redis.ts';
import { memoryBoardCache, redisBoardCache } from './lib/page-cache.ts';
import { storageFor } from './gateways/storage/index.ts';
import { registerJobs, registerPaymentJobs } from './jobs/definitions.ts';
import { createJobRunner, type JobRunner } from './jobs/runner.ts';
import { createSignedLinks } from './lib/signed-links.ts';
import { createApiKeysService, revokeKeysMadeBy } from './modules/apikeys/apikeys.service.ts';
import { createAccountAdmin } from './modules/auth/account-admin.service.ts';
import { createBillingService, plansOfAccounts } from './modules/billing/billing.service.ts';
import { createBayanService } from './modules/bayan/bayan.service.ts';
import { createVerificationService } from './modules/verification/verification.service.ts';
import { assertStillActing, createTeamService, teamInviteSmsHandler } from './modules/team/team.service.ts';
import { contactSharesOf, createProfileService } from './modules/profile/profile.service.ts';
import { createRelationsService, relationsOfUser } from './modules/relations/relations.service.ts';
import { assignmentReleaseHandler, createAssignmentService } from './modules/assignment/assignment.service.ts';
import { createAuthService, createSessionChecks, revokeSessionsOf } from './modules/auth/auth.service.ts';
import { contactEmailHandler, createContactService } from './modules/contact/contact.service.ts';
import { createLedgerService } from './modules/ledger/ledger.service.ts';
import { createEscrowService, escrowHandler } from './modules/escrow/escrow.service.ts';
import { createDetentionService } from './modules/detention/detention.service.ts';
import { createPayoutsService } from './modules/payouts/payouts.service.ts';
import { creditFromEscrow, debitForEscrow } from './modules/billing/use-cases/escrow-wallet.ts';
import { createCsvService } from './modules/csv/csv.service.ts';
import { createEventDelivery, timelineHandler, type EventHandler } from './modules/events/events.service.ts';
import { createFilesService, fileLookups } from './modules/files/files.service.ts';
import { createFleetService, fleetAssignment, fleetWaslCounts } from './modules/fleet/fleet.service.ts';
import { createIdempotencyService } from './modules/idempotency/idempotency.service.ts';
import { createLoadsService, loadLane, loadLifecycle, loadStopWindows, rateFactsOf, toLoadMatch } from './modules/loads/loads.service.ts';
import { cityNamesByIds } from './modules/reference/reference.service.ts';
import { createOffersService, offersOfLoad, offersOfUsers } from './modules/offers/offers.service.ts';
import { createTripsService } from './modules/trips/trips.service.ts';
import { createTrucksService } from './modules/trucks/trucks.service.ts';
import { accountRecordHandler, createRecordsService } from './modules/records/records.service.ts';
import { createRatesService, laneRatesHandler } from './modules/rates/rates.service.ts';
import { createTendersService, tendersOfLoad } from './modules/tenders/tenders.service.ts';
import { createChatService } from './modules/chat/chat.service.ts';
import { createCallsService } from './modules/calls/calls.service.ts';
import { createSearchesService } from './modules/searches/searches.service.ts';
import { createForecastService } from './modules/rates/forecast.service.ts';
import { createAlertsService, rateAlertEmailHandler } from './modules/rates/alerts.service.ts';
import { createWebhooksService, removeEndpointsMadeBy, webhookFanout } from './modules/webhooks/webhooks.service.ts';
import { createVendorsService, vendorAccountsOf } from './modules/vendors/vendors.service.ts';
import { createNotificationsService, notificationsHandler } from './modules/notifications/notifications.service.ts';
import { createPushService } from './modules/notifications/notifications.push.ts';
import { createDashboardsService, dashboardsHandler } from './modules/dashboards/dashboards.service.ts';
import { createRealtime } from './modules/realtime/realtime.broker.ts';
import { createPresenceService } from './modules/realtime/presence.service.ts';
import { realtimeHandler } from './modules/realtime/realtime.handler.ts';
import { teamRoleAllows } from './modules/team/team.access.ts';

/** The little a container needs to log (pino's logger, or the console in the CLI). */
export interface Log {
  error(obj: unknown, msg: string): void;
  info(obj: unknown, msg: string): void;
}

/*
 * Ports of stateless module functions (issue 51: a module calls another only through what the
 * container wires in; each runs inside the caller's transaction).
 */
// a leaving team member's sessions (auth), API keys (apikeys) and webhook endpoints (webhooks) go with it
const memberAccess = { revokeSessionsOf: (tx: DbOrTx, userId: string) => revokeSessionsOf(tx, userId), revokeKeysMadeBy, removeEndpointsMadeBy };
// assignment has no table: the shipment through the loads lifecycle, the truck through the fleet's
const assignmentPorts = { loadLifecycle, fleetAssignment };
// the fact-based record: the stop windows through the loads module, the WASL share through the fleet module
const recordPorts = { loadStopWindows, fleetWaslCounts };
// the dashboards' lanes and stop windows through the loads module
const dashboardSources = { lane: loadLane, windows: loadStopWindows };

/**
 * The money modules of issue 50: the double-entry ledger (others post through its `post` port in
 * their transaction); payment protection — the billing wallet funds escrows (its escrow-wallet
 * port), the job runner releases them after the dispute window (asked for lazily: it is built
 * after the services); detention billed from the trip's step times, posting accepted charges to
 * the ledger; payouts keeping the carrier's IBAN.
 */
function moneyModules(db: Db, config: Config, jobs: () => JobRunner) {
  const ledger = createLedgerService({ db });
  const scheduleRelease = async (id: string, at: Date) => {
    await jobs().send('escrow.release', { id }, { singletonKey: `escrow:${id}`, startAfter: at });
  };
  const escrow = createEscrowService({
    db,
    ledgerPost: ledger.post,
    wallet: { debit: debitForEscrow, credit: creditFromEscrow },
    disputeWindowMs: config.ESCROW_DISPUTE_WINDOW_HOURS * 3_600_000,
    scheduleRelease,
  });
  const detention = createDetentionService({ db, ledgerPost: ledger.post });
  return { services: { ledger, escrow, detention, payouts: createPayoutsService({ db }) }, events: escrowHandler(escrow, scheduleRelease) };
}

/**
 * The composition root (issue 6, DESIGN §2): repositories are modules of functions over the
 * database; the services and gateways are built here, once. Routes, the admin CLI, the demo
 * seed, tests and the job worker all take them from the container; nothing else constructs a
 * service.
 */
export function createContainer(opts: {
  config: Config;
  database: Database;
  gateways?: Gateways;
  /** Another Bayan gateway (tests of the HTTP adapter); by default BAYAN_GATEWAY decides. */
  bayanGateway?: BayanGateway;
  log?: Log;
  /** More subscribers of domain events, after the load timeline (benchmarks; later notifications). */
  eventHandlers?: EventHandler[];
  /** The https agent of web push requests (tests: trusts a local push service's certificate). */
  pushAgent?: Agent;
}) {
  const { config, database } = opts;
  const db = database.db;
  const log: Log = opts.log ?? { error: (o, m) => console.error(m, o), info: () => undefined };
  const baseGateways = opts.gateways ?? createGateways(config, opts.log ? (m) => opts.log!.info({}, m) : undefined);
  // Bayan's sandbox keeps its trips in the database; WASL's sandbox needs no state
  const gateways = {
    ...baseGateways,
    bayan: opts.bayanGateway ?? createBayanGateway(config, db, (tripId) => log.info({ tripId }, BAYAN_ANSWER_HELD)),
    wasl: createWaslGateway(config),
  };
  const storage = storageFor(config);
  // state shared by several instances (rate-limit counters) when REDIS_URL is set
  const redis = config.REDIS_URL ? createRedis(config.REDIS_URL) : null;

  const auth = createAuthService({ db, config, sms: gateways.sms });
  const sessions = createSessionChecks(db);
  const accounts = createAccountAdmin(db, plansOfAccounts);
  const apiKeys = createApiKeysService(db, { stillActing: assertStillActing });
  const idempotency = createIdempotencyService(db, { leaseSeconds: config.IDEMPOTENCY_LEASE_SECONDS });
  // booking crosses two modules: each owns its table and lends the other a narrow lifecycle
  // board search pages: in Redis (shared) when REDIS_URL is set, else in this process (bounded in
  // bytes); either way keyed on the versions of their places in the database, so several
  // instances stay fresh (issues 10, 24)
  const boardCache = redis
    ? redisBoardCache(redis, `${config.REDIS_KEY_PREFIX}board:`)
    : memoryBoardCache(config.SEARCH_CACHE_MAX, config.BOARD_CACHE_MAX_BYTES);
  const loads = createLoadsService({
    db,
    readDb: database.readDb,
    config,
    routing: gateways.routing,
    offers: offersOfLoad,
    vendors: vendorAccountsOf,
    cache: boardCache,
    relations: relationsOfUser,
  });
  // the fact-based record (issue 19): kept by its outbox handler; read by trucks and offers;
  // days-to-pay as the trips module measures it (built below; called only at request time)
  const records = createRecordsService({ db, daysToPay: (id) => trips.daysToPay(id), ...recordPorts });
  const offers = createOffersService({ db, loads: loadLifecycle, relations: relationsOfUser, vendors: vendorAccountsOf, records });
  const links = createSignedLinks(config.jwtSecret);
  const vendors = createVendorsService({ db, links, files: fileLookups });
  const files = createFilesService({ db, storage, log });
  // documents and logos are the files module's, checked inside the caller's transaction
  const verification = createVerificationService({ db, files: fileLookups });
  const profile = createProfileService({ db, files: fileLookups });
  // the invitation SMS links to the web app (PUBLIC_URL; the product's address when unset)
  const publicUrl = (config.PUBLIC_URL ?? 'https://masar.sa').replace(/\/$/, '');
  const team = createTeamService({ db, sms: gateways.sms, publicUrl, log, access: memberAccess });
  // the fleet's documents and photos are the files module's, checked inside the caller's transaction
  const fleet = createFleetService({ db, links, wasl: gateways.wasl, sms: gateways.sms, publicUrl, log, files: fileLookups });
  // favourites and blocks (issue 8): closes offers through the offers module, reads loads and shared contacts through theirs
  const relations = createRelationsService({ db, offers: offersOfUsers, loads: loadLifecycle, contactShares: contactSharesOf });
  const trips = createTripsService({
    db,
    links,
    storage,
    loads: loadLifecycle,
    config,
    tripContacts: (carrierId, loadId) => relations.tripContacts(carrierId, loadId),
  });
  const assignment = createAssignmentService({ db, ...assignmentPorts });
  // truck posts; backhauls, the shipment in/out log and the load side of the ratio through the loads service (issue 19)
  const trucks = createTrucksService({ db, readDb: database.readDb, records, loads, toLoadMatch, cache: boardCache, cacheTtlMs: config.SEARCH_CACHE_TTL_MS });
  // tendering (issue 19): books through the offers module's booking path, posts through the loads lifecycle
  const tenders = createTendersService({ db, loads: loadLifecycle, offers, vendors: vendorAccountsOf, relations: relationsOfUser });
  // chat about a load (issue 21): parties through the loads, offers and tenders modules; blocks and contact settings through relations
  // presence (issue 21): the other side's state through the real-time module (built below; called only at request time)
  const presence = createPresenceService({ db });
  const chat = createChatService({
    db,
    loads: loadLifecycle,
    offers: offersOfLoad,
    tenders: tendersOfLoad,
    relations,
    files: { openShared: (id) => files.openShared(id), ownedChatAttachment: fileLookups.ownedChatAttachment },
    presence: {
      of: async (accountId) =>
        realtime ? realtime.presenceOf(accountId) : { online: false, lastSeenAt: (await presence.lastSeen([accountId])).get(accountId)?.toISOString() ?? null },
    },
  });
  const searches = createSearchesService({ db });
  // stored notifications (issue 21): the e-mail links point at the web app
  const notifications = createNotificationsService({ db, email: gateways.email, publicUrl, log, retentionDays: config.NOTIFICATION_RETENTION_DAYS });
  // web push (issue 21): the account a user acts for decides the topic they may follow
  const push = createPushService({
    db,
    vapid: config.vapid,
    allowPrivate: config.PUSH_ALLOW_PRIVATE,
    accountOf: async (userId) => (await sessions.membershipOf(userId))?.ownerId ?? userId,
    log,
    agent: opts.pushAgent,
  });
  // city names through the reference module
  const dashboards = createDashboardsService({ db, sources: dashboardSources, cityNames: cityNamesByIds });
  // the lane rate index (issue 20): kept by its outbox handler (lane-rates); read by the market rates routes
  const rates = createRatesService({ db, readDb: database.readDb, rateFactsOf });
  // rate forecast and rate-change alerts (issue 20): read the lane rate index's daily aggregates
  const forecast = createForecastService({ db, readDb: database.readDb, cityNames: cityNamesByIds });
  const rateAlerts = createAlertsService({ db });
  const contact = createContactService({ db });
  // issue 50: ledger, payment protection, detention, payouts
  const money = moneyModules(db, config, () => jobs);
  // publicUrl unset: the sandbox's 3-D Secure page is a path of this app (a real acquirer needs PUBLIC_URL)
  const billing = createBillingService({ db, payments: gateways.payments, seller: config, publicUrl: (config.PUBLIC_URL ?? '').replace(/\/$/, '') });
  // the real-time channel (issue 21): started by the server (app.ts), fed by its outbox handler
  const realtime = config.REALTIME
    ? createRealtime({
        jwtSecret: config.jwtSecret,
        sessions,
        // typing on a conversation's topic: the session's account (a team member acts for its owner
        // and signals only where its role may send chat messages), then the chat module's rules;
        // asked anew on every subscription and signal, so a revoked session or a block counts at once
        conversations: {
          async typing(who, conversationId, act) {
            const acting = await sessions.sessionActing(who.sessionId);
            if (!acting) return null;
            const m = acting.membership;
            const maySend = !m || teamRoleAllows(m.role, 'POST', 'chat', `/api/v1/chat/conversations/${conversationId}/messages`);
            return chat.typingAccess({ accountId: m?.ownerId ?? who.userId, maySend }, conversationId, act);
          },
        },
        // presence on a conversation's topic (docs/realtime.md "Presence"): the session's account
        // counts (a team member for its owner); following is the chat module's rule, asked anew
        presence: {
          async accountOf(who) {
            const acting = await sessions.sessionActing(who.sessionId);
            return acting ? (acting.membership?.ownerId ?? who.userId) : null;
          },
          async follow(who, conversationId) {
            const acting = await sessions.sessionActing(who.sessionId);
            if (!acting) return null;
            return chat.presenceAccess(acting.membership?.ownerId ?? who.userId, conversationId);
          },
          lastSeen: (ids) => presence.lastSeen(ids),
          touch: (ids) => presence.touch(ids),
        },
        redisUrl: config.REDIS_URL,
        redisKeyPrefix: config.REDIS_KEY_PREFIX,
        sweepSeconds: config.REALTIME_SWEEP_SECONDS,
        log,
      })
    : null;
  // calls about a load (issue 21): parties through the chat module, blocks and audio/video settings
  // through relations, signalling relayed over the real-time broker, the ring time checked by a job
  const calls = createCallsService({
    db,
    chat,
    relations,
    realtime,
    ice: config,
    scheduleExpiry: async (id, after) => {
      await jobs.send('calls.expire', { id }, { singletonKey: `call:${id}`, startAfter: after });
    },
  });
  const events = createEventDelivery({
    db,
    handlers: [
      timelineHandler,
      webhookFanout,
      assignmentReleaseHandler(assignmentPorts),
      accountRecordHandler(recordPorts),
      // stored in-app notifications and their e-mails (issue 21)
      notificationsHandler,
      // the dashboards' aggregates (issue 20; docs/dashboards.md)
      dashboardsHandler(dashboardSources),
      laneRatesHandler({ rateFactsOf }),
      teamInviteSmsHandler({ sms: gateways.sms, publicUrl, log }),
      contactEmailHandler({ email: gateways.email, contactTo: config.CONTACT_TO, log }),
      money.events,
      rateAlertEmailHandler({ email: gateways.email, publicUrl, log }),
      ...(realtime ? [realtimeHandler({ db, realtime })] : []),
      ...(opts.eventHandlers ?? []),
    ],
    log,
  });
  const webhooks = createWebhooksService({
    db,
    allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    retryBaseSeconds: config.WEBHOOK_RETRY_BASE_SECONDS,
    log,
    stillActing: assertStillActing,
  });
  const jobs = createJobRunner({
    database,
    log,
    work: config.JOBS,
    pollingIntervalSeconds: config.JOBS_POLL_SECONDS,
    maintenanceIntervalSeconds: config.JOBS_MAINTENANCE_SECONDS,
  });
  const bayan = createBayanService({
    db,
    gateway: gateways.bayan,
    loads: loadLifecycle,
    timeoutMs: config.BAYAN_TIMEOUT_MS,
    staleSeconds: config.BAYAN_STALE_SECONDS,
    log,
    enqueue: async (id, o) => {
      await jobs.send('bayan.create', { id }, { singletonKey: `bayan:${id}`, ...(o?.startAfterSeconds ? { startAfter: o.startAfterSeconds } : {}) });
    },
  });
  const csv = createCsvService({
    db,
    fleet,
    vendors,
    loads,
    cityNames: cityNamesByIds,
    log,
    currentUser: (id) => sessions.currentUser(id),
    enqueue: (logId) => jobs.send('csv.import', { logId }, { singletonKey: logId }).then(() => undefined),
  });

  const container = {
    config,
    database,
    db,
    log,
    gateways,
    storage,
    redis,
    links,
    /** The embedded MQTT broker (issue 21), or null with REALTIME=false. */
    realtime,
    services: {
      auth,
      sessions,
      accounts,
      apiKeys,
      idempotency,
      loads,
      offers,
      fleet,
      vendors,
      files,
      csv,
      events,
      webhooks,
      billing,
      verification,
      profile,
      team,
      relations,
      trips,
      assignment,
      bayan,
      contact,
      ...money.services,
      trucks,
      records,
      tenders,
      searches,
      chat,
      calls,
      notifications,
      push,
      dashboards,
      rates,
      forecast,
      rateAlerts,
    },
    jobs,
  };
  registerJobs(container);
  registerPaymentJobs(container);
  return {
    ...container,
    /** Stop the job worker and close shared connections (the caller closes the database). */
    async close() {
      if (realtime) await realtime.close();
      await jobs.stop();
      await forecast.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

export type Container = ReturnType<typeof createContainer>;
