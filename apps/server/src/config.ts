import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import webpush from 'web-push';
import { z } from 'zod';

const here = dirname(fileURLToPath(import.meta.url));
/** Root of the repository (apps/server/src → ../../..). */
export const REPO_ROOT = resolve(here, '../../..');

/** A comma list of URLs (blank entries dropped); empty when unset. */
const urlList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean),
  );
const bool = z.enum(['0', '1', 'true', 'false', 'yes', 'no', '']).transform((v) => v === '1' || v === 'true' || v === 'yes');

/**
 * Every environment variable the server reads, validated once at start-up. The README's
 * configuration table lists the same variables; keep them in step.
 */
export const envSchema = z.object({
  NODE_ENV: z.string().default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Embedded PGlite data directory and local uploads; ignored for the DB when DATABASE_URL is set. */
  DATA_DIR: z.string().default('./data'),
  /** postgres://… to run on real PostgreSQL instead of embedded PGlite. */
  DATABASE_URL: z.string().optional(),
  /**
   * A read replica (streaming hot standby of DATABASE_URL) for reads that may be a little stale:
   * the board search and the board version its cache keys on (issue 10). Unset: all on primary.
   */
  DATABASE_READ_URL: z.string().optional(),
  /**
   * Seed demo accounts (with a published password), loads and fleets on start. Off by default;
   * `npm start` (the try-it-out run) switches it on with NODE_ENV=development. Refused when
   * NODE_ENV=production: anyone could sign in to the demo accounts.
   */
  DEMO_SEED: bool.default(false),
  /** Secret for signing access tokens; generated and kept in DATA_DIR when unset. */
  JWT_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().positive().default(30),
  /**
   * Reuse interval of a rotated refresh token, in seconds (0 = none). Within it a retired token is
   * answered with a new token of the same family instead of being taken for theft: the browser
   * that sent it never received the rotation's answer (the tab reloaded or navigated while the
   * request was in flight) and would otherwise be signed out. After it, reuse revokes the family.
   */
  REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  /**
   * SMS gateway: sandbox (default; writes each SMS to DATA_DIR/sms-sandbox.log and keeps an
   * outbox; the log says only "SMS to +9665…1234 written to <file>") or a real provider name.
   * Refused when NODE_ENV=production unless ALLOW_SANDBOX_GATEWAYS=1.
   */
  SMS_GATEWAY: z.enum(['sandbox', 'unifonic']).default('sandbox'),
  SMS_API_KEY: z.string().optional(),
  /** Registered SMS sender name (Unifonic SenderID); the provider's default when unset. */
  SMS_SENDER_ID: z.string().optional(),
  /**
   * Expose the sandbox SMS outbox at GET /api/v1/dev/outbox (development and tests only). Off by
   * default: the outbox shows every one-time code, so anyone could reset any account with it.
   * Refused when NODE_ENV=production. Sandbox codes are also in DATA_DIR/sms-sandbox.log, never
   * in the server log.
   */
  DEV_OUTBOX: bool.default(false),
  /**
   * Let NODE_ENV=production start with sandbox gateways (SMS, e-mail, payments, Bayan, WASL): a
   * staging server that must not text, mail, charge or file anything real. Off: production
   * refuses every sandbox (issue 22). The test knobs (DEV_OUTBOX, DEMO_SEED, WEBHOOKS_ALLOW_PRIVATE,
   * IDEMPOTENCY_TEST_HOLD_MS) stay refused either way.
   */
  ALLOW_SANDBOX_GATEWAYS: bool.default(false),
  /** E-mail gateway: sandbox (default; keeps the last 100 in memory, logs recipient and subject only) or smtp (nodemailer, SMTP_URL). */
  EMAIL_GATEWAY: z.enum(['sandbox', 'smtp']).default('sandbox'),
  /** SMTP server for EMAIL_GATEWAY=smtp: smtp://user:pass@host:587 (STARTTLS) or smtps://user:pass@host:465. */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  /** From header of every e-mail Masar sends. */
  EMAIL_FROM: z.string().min(3).default('Masar <no-reply@masar.example>'),
  /** Where contact-form messages go (the support team's mailbox). */
  CONTACT_TO: z.email().default('support@masar.example'),
  /** Contact-form messages allowed per client IP per hour (0 = no limit). */
  CONTACT_RATE_PER_IP_PER_HOUR: z.coerce.number().int().min(0).default(10),
  /** OTP sends allowed per phone per minute / per hour, and per client IP per 10 minutes (0 = no limit). */
  OTP_RATE_PER_PHONE_PER_MIN: z.coerce.number().int().min(0).default(3),
  OTP_RATE_PER_PHONE_PER_HOUR: z.coerce.number().int().min(0).default(10),
  OTP_RATE_PER_IP_PER_10MIN: z.coerce.number().int().min(0).default(20),
  /** Requests per client IP per minute on each sign-in/sign-up/OTP/reset endpoint (brute force; 0 = no limit). */
  AUTH_RATE_PER_IP_PER_MIN: z.coerce.number().int().min(0).default(30),
  /** Wrong passwords allowed per account per 15 minutes before password sign-in pauses (0 = no limit; SMS-code sign-in still works). */
  LOGIN_MAX_FAILED_PER_15MIN: z.coerce.number().int().min(0).default(10),
  /** Routing: great-circle × ROAD_FACTOR (default). */
  ROUTING: z.enum(['greatCircle']).default('greatCircle'),
  /** Road distance ≈ great-circle × this factor. An estimate fitted to Riyadh–Jeddah (≈ 950 km by road, 848 km great-circle); a real router replaces it behind the routing gateway. */
  ROAD_FACTOR: z.coerce.number().min(1).max(3).default(1.12),
  /** Map tiles URL template for the web map (Leaflet). */
  MAP_TILES_URL: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  /** Days a posted load stays on the board after its first pickup date before it expires. */
  LOAD_EXPIRY_HOURS_AFTER_PICKUP: z.coerce.number().int().min(0).default(24),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Directory of the built web app (served at /). */
  WEB_DIST: z.string().default(join(REPO_ROOT, 'apps/web/dist')),
  /** Disable rate limits for loopback clients (benchmarks only). */
  BENCH: bool.default(false),
  /** Run the job worker in this instance (durable jobs, outbox delivery); 0 = only enqueue. */
  JOBS: bool.default(true),
  /** How often an idle job worker polls, seconds (pg-boss; at least 0.5). */
  JOBS_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(0.5),
  /**
   * How often pg-boss's maintenance runs, seconds: it retries the job of a worker that died
   * (after the job's expiry) and checks cron schedules.
   */
  JOBS_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  /** A CSV import attempt still running after this many seconds counts as dead (its instance was killed) and runs again on any instance. */
  CSV_IMPORT_EXPIRE_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  /** Prefix of every key this deployment writes to Redis (several deployments may share one Redis). */
  REDIS_KEY_PREFIX: z.string().max(50).default('masar:'),
  /**
   * How long a cached board search page may be served (ms; 0 turns the cache off). A page is only
   * served while the versions of its places are those it was computed under (issue 24), so this bounds
   * how late a NEW post shows up, never how long a booked or removed load lingers.
   */
  SEARCH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  /** Board pages kept in this process when REDIS_URL is not set (least recently used go first). */
  SEARCH_CACHE_MAX: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** Total size of the board pages kept in this process (bytes of their JSON; least recently used go first). */
  BOARD_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(16 * 1024 ** 3)
    .default(64 * 1024 ** 2),
  /** Log one request in this many on the hot read routes (GET /loads); errors and 4xx/5xx always. 1 logs all. */
  LOG_SAMPLE_HOT_ROUTES: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /** How often the outbox drain looks for undelivered events, ms (it is also woken by a publish in this instance). */
  OUTBOX_POLL_MS: z.coerce.number().int().min(20).max(60_000).default(250),
  /** Trust X-Forwarded-* headers (behind a proxy). */
  TRUST_PROXY: bool.default(false),
  /**
   * Let webhook endpoints use plain http and private or loopback hosts (development and tests);
   * refused when NODE_ENV=production. Off: https to public hosts only.
   */
  WEBHOOKS_ALLOW_PRIVATE: bool.default(false),
  /** How long Masar waits for a webhook endpoint to answer, ms. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(10_000),
  /** First retry of a failed webhook delivery after this many seconds, doubling, at most an hour apart, for a day. */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
  /** Payment gateway: sandbox (default; test cards, no money moves) or moyasar (a Saudi acquirer's REST API). */
  PAYMENT_GATEWAY: z.enum(['sandbox', 'moyasar']).default('sandbox'),
  PAYMENT_API_URL: z.string().url().default('https://api.moyasar.com/v1'),
  /** Sandbox only (crash tests): delay every charge's answer by this many ms. */
  PAYMENT_SANDBOX_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /**
   * Seconds after which a card checkout still `processing` (its charge never recorded: the
   * request died) is settled with the acquirer by the `billing.reconcile` job (issue 22).
   */
  CHECKOUT_RECONCILE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  PAYMENT_SECRET_KEY: z.string().optional(),
  PAYMENT_PUBLISHABLE_KEY: z.string().optional(),
  /** Public address of the web app (https://…), for the acquirer's redirect after 3-D Secure; required with PAYMENT_GATEWAY=moyasar. */
  PUBLIC_URL: z.string().url().optional(),
  /** The seller on VAT invoices (ZATCA): legal names, 15-digit VAT registration number, address. */
  SELLER_NAME_EN: z.string().default('Masar Logistics Technology Co.'),
  SELLER_NAME_AR: z.string().default('شركة مسار لتقنية الخدمات اللوجستية'),
  SELLER_VAT_NUMBER: z
    .string()
    .regex(/^3\d{13}3$/)
    .default('310000000000003'),
  SELLER_ADDRESS: z.string().default('King Fahd Road, Al Olaya, Riyadh 12214, Saudi Arabia'),
  /**
   * Bayan (Elm's transport permit and waybill service; issue 7, docs/bayan-wasl.md): sandbox
   * (default; validates and keeps trips like the service, in the database) or http (the real API).
   */
  BAYAN_GATEWAY: z.enum(['sandbox', 'http']).default('sandbox'),
  BAYAN_BASE_URL: z.string().url().default('https://bayan.api.elm.sa/api/v1'),
  BAYAN_APP_ID: z.string().optional(),
  BAYAN_APP_KEY: z.string().optional(),
  BAYAN_CLIENT_ID: z.string().optional(),
  /** Payment protection (issue 50): hours after a protected shipment completes before its escrow is released to the carrier (a dispute before then holds it). */
  ESCROW_DISPUTE_WINDOW_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 90)
    .default(48),
  /** How long Masar waits for Bayan, ms; then the shipment waits in pending_bayan and a job retries. */
  BAYAN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Sandbox only: answer every call "unavailable" (to see pending_bayan and the retry job). */
  BAYAN_SANDBOX_FAIL: bool.default(false),
  /** Sandbox only: delay every answer by this many ms. */
  BAYAN_SANDBOX_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /** Sandbox only (crash tests): a trip creation files the trip at once and answers this many ms later. */
  BAYAN_SANDBOX_ANSWER_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /** WASL (vehicle and driver registration with Elm's tracking service): sandbox (default) or http. */
  WASL_GATEWAY: z.enum(['sandbox', 'http']).default('sandbox'),
  WASL_BASE_URL: z.string().url().default('https://wasl.api.elm.sa/api/v1'),
  WASL_APP_ID: z.string().optional(),
  WASL_APP_KEY: z.string().optional(),
  /** A driver's proof taken farther than this (km, great circle) from its stop is flagged to the shipper (issue 7). */
  PROOF_GEOFENCE_KM: z.coerce.number().min(0.05).max(500).default(2),
  /** How long a driver's trip session (after phone + licence number on the job link) lasts, hours. */
  TRIP_SESSION_HOURS: z.coerce.number().min(0.1).max(72).default(12),
  /**
   * Position posts per minute from one driver's trip token (the job page sends one a minute; GPS integrations with an API key have the key's own budget). 0 turns the limit off.
   */
  TRIP_POSITIONS_PER_MIN: z.coerce.number().int().min(0).default(30),
  /**
   * Idempotency-Key lease, seconds (issue 22): a running request renews it; a request whose lease
   * passed with no response died, and a retry with the same key takes the key over (replaying
   * what it committed, or running again when it committed nothing).
   */
  IDEMPOTENCY_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Crash tests only: hold every idempotent response this many ms after the handler, before it is stored. Refused when NODE_ENV=production. */
  IDEMPOTENCY_TEST_HOLD_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /** Seconds after which a Bayan trip still `pending` with no live request is handed to its retry job (the request died); at least BAYAN_TIMEOUT_MS + 5 s. */
  BAYAN_STALE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * Web push (issue 21; docs/notifications.md "Web push"): the VAPID key pair (base64url, as
   * `npx web-push generate-vapid-keys` prints them) that signs every push. Both or neither: when
   * unset, a pair is generated once into DATA_DIR/vapid-keys.json (mode 0600), like the JWT
   * secret. Several instances must share one pair (set them): a browser's subscription is bound
   * to the public key it was made with.
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{86,88}$/)
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{42,44}$/)
    .optional(),
  /** Who the push services may contact about our pushes: mailto:… or https://… (default mailto: CONTACT_TO). */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/)
    .optional(),
  /**
   * Let push subscriptions name http and private or loopback endpoints (tests with a local push
   * service); refused when NODE_ENV=production. Off: https to public hosts only (no SSRF).
   */
  PUSH_ALLOW_PRIVATE: bool.default(false),
  /** Days an in-app notification is kept (read or not); the daily cleanup forgets older ones. */
  NOTIFICATION_RETENTION_DAYS: z.coerce.number().int().min(7).max(3650).default(180),
  /** Redis for state shared by several instances (rate-limit counters, the real-time bus); in-process when unset. */
  REDIS_URL: z.string().url().optional(),
  /** The real-time channel: MQTT over WebSocket at /mqtt from the embedded broker (issue 21; docs/realtime.md). */
  REALTIME: bool.default(true),
  /** Seconds between re-checks of the connected real-time sessions (a revoked one is disconnected); logout and suspension re-check at once. */
  REALTIME_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(20),
  /**
   * Calls (issue 21; docs/calls.md): STUN servers handed to the browsers, a comma list of
   * `stun:host:port` URLs. None by default: peers on one machine or LAN need none.
   */
  STUN_URLS: urlList,
  /** TURN servers (a comma list of `turn:` / `turns:` URLs, e.g. coturn); each call gets short-lived credentials for them. */
  TURN_URLS: urlList,
  /** coturn's `static-auth-secret` (use-auth-secret): the TURN credential is base64(HMAC-SHA1(secret, "<expiry>:<userId>")). */
  TURN_SECRET: z.string().min(16).optional(),
  /** How long a TURN credential is valid, in seconds. */
  TURN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  /** An S3-compatible bucket for uploaded files (several instances); local disk when unset. */
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().default('us-east-1'),
  /** Endpoint of an S3-compatible store (e.g. http://minio:9000); AWS S3 when unset. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  /** Static credentials; the AWS SDK's default chain (environment, instance role) when unset. */
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Prefix for every object key, e.g. `masar/`. */
  S3_PREFIX: z.string().optional(),
});

/** The VAPID identity of web push: keys (base64url) and subject; `generated` when kept in DATA_DIR (not from the environment). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
  generated: boolean;
}

export type Config = z.infer<typeof envSchema> & { jwtSecret: string; dataDir: string; vapid: VapidKeys };

/** Read and validate the environment. Throws with a readable list of bad variables. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const cfg = { ...parsed.data, ...overrides };
  // TURN servers without the shared secret would hand out credentials coturn refuses
  if (cfg.TURN_URLS.length > 0 && !cfg.TURN_SECRET)
    throw new Error('Invalid configuration:\n  TURN_SECRET: required with TURN_URLS (coturn static-auth-secret)');
  // What production refuses (issue 22), in one table: the test knobs always, the sandbox
  // gateways unless a staging server allows them (ALLOW_SANDBOX_GATEWAYS=1).
  if (cfg.NODE_ENV === 'production') {
    const staging = 'ALLOW_SANDBOX_GATEWAYS=1 on a staging server, or NODE_ENV=development for a demo';
    const refused: { name: string; on: boolean; why: string; fix?: string; sandbox?: true }[] = [
      {
        name: 'DEV_OUTBOX',
        on: cfg.DEV_OUTBOX,
        why: 'the SMS outbox shows every one-time code; it is refused when NODE_ENV=production (set NODE_ENV=development to use it)',
      },
      {
        name: 'DEMO_SEED',
        on: cfg.DEMO_SEED,
        why: 'demo accounts have a published password; they are refused when NODE_ENV=production (npm start runs the demo with NODE_ENV=development)',
      },
      {
        name: 'WEBHOOKS_ALLOW_PRIVATE',
        on: cfg.WEBHOOKS_ALLOW_PRIVATE,
        why: 'webhooks to http or private hosts would let users reach internal services; it is refused when NODE_ENV=production',
      },
      {
        name: 'PUSH_ALLOW_PRIVATE',
        on: cfg.PUSH_ALLOW_PRIVATE,
        why: 'push subscriptions to http or private hosts would let users make the server call internal services; it is refused when NODE_ENV=production',
      },
      {
        name: 'IDEMPOTENCY_TEST_HOLD_MS',
        on: cfg.IDEMPOTENCY_TEST_HOLD_MS > 0,
        why: 'a crash-test switch that delays every create; it is refused when NODE_ENV=production',
      },
      {
        name: 'PAYMENT_GATEWAY',
        on: cfg.PAYMENT_GATEWAY === 'sandbox',
        why: 'the sandbox approves test card numbers, so anyone could buy a plan without paying',
        fix: 'PAYMENT_GATEWAY=moyasar with its keys',
        sandbox: true,
      },
      {
        name: 'BAYAN_GATEWAY',
        on: cfg.BAYAN_GATEWAY === 'sandbox',
        why: 'the sandbox issues made-up Bayan trips and waybills that no authority knows',
        fix: "BAYAN_GATEWAY=http with Elm's credentials",
        sandbox: true,
      },
      {
        name: 'WASL_GATEWAY',
        on: cfg.WASL_GATEWAY === 'sandbox',
        why: 'the sandbox issues made-up WASL verdicts that no authority knows',
        fix: "WASL_GATEWAY=http with Elm's credentials",
        sandbox: true,
      },
      {
        name: 'SMS_GATEWAY',
        on: cfg.SMS_GATEWAY === 'sandbox',
        why: 'the sandbox sends no SMS: nobody gets a one-time code, and the codes sit in a file on the server',
        fix: 'SMS_GATEWAY=unifonic with SMS_API_KEY',
        sandbox: true,
      },
      {
        name: 'EMAIL_GATEWAY',
        on: cfg.EMAIL_GATEWAY === 'sandbox',
        why: 'the sandbox sends no e-mail: contact-form messages and every other e-mail are kept in memory and lost',
        fix: 'EMAIL_GATEWAY=smtp with SMTP_URL',
        sandbox: true,
      },
    ];
    for (const r of refused) {
      if (!r.on || (r.sandbox && cfg.ALLOW_SANDBOX_GATEWAYS)) continue;
      const why = r.sandbox ? `${r.why}; it is refused when NODE_ENV=production (set ${r.fix}, or ${staging})` : r.why;
      throw new Error(`Invalid configuration:\n  ${r.name}: ${why}`);
    }
  }
  if (cfg.PAYMENT_GATEWAY !== 'sandbox' && !cfg.PUBLIC_URL) {
    throw new Error('Invalid configuration:\n  PUBLIC_URL: a real payment gateway sends the payer back to PUBLIC_URL after 3-D Secure; set it (https://…)');
  }
  if (cfg.EMAIL_GATEWAY === 'smtp' && !cfg.SMTP_URL) {
    throw new Error('Invalid configuration:\n  SMTP_URL: EMAIL_GATEWAY=smtp needs the SMTP server (smtp://user:pass@host:587)');
  }
  if (Boolean(cfg.VAPID_PUBLIC_KEY) !== Boolean(cfg.VAPID_PRIVATE_KEY)) {
    throw new Error(
      'Invalid configuration:\n  VAPID_PRIVATE_KEY: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY together (npx web-push generate-vapid-keys), or neither',
    );
  }
  const dataDir = resolve(cfg.DATA_DIR);
  const subject = cfg.VAPID_SUBJECT ?? `mailto:${cfg.CONTACT_TO}`;
  const vapid: VapidKeys =
    overrides.vapid ??
    (cfg.VAPID_PUBLIC_KEY && cfg.VAPID_PRIVATE_KEY
      ? { publicKey: cfg.VAPID_PUBLIC_KEY, privateKey: cfg.VAPID_PRIVATE_KEY, subject, generated: false }
      : { ...persistedVapidKeys(cfg.DATA_DIR.startsWith('memory://') ? null : dataDir), subject, generated: true });
  return { ...cfg, dataDir, vapid, jwtSecret: cfg.JWT_SECRET ?? overrides.jwtSecret ?? persistedSecret(dataDir) };
}

/**
 * A VAPID key pair kept in DATA_DIR/vapid-keys.json (0600) so browsers' subscriptions survive
 * restarts of the embedded setup; in memory only for an in-memory DATA_DIR (tests).
 */
function persistedVapidKeys(dataDir: string | null): { publicKey: string; privateKey: string } {
  // P-256: the public key uncompressed (65 bytes), the private key raw (32 bytes), base64url
  const fresh = () => webpush.generateVAPIDKeys();
  if (!dataDir) return fresh();
  const file = join(dataDir, 'vapid-keys.json');
  if (existsSync(file)) {
    const k = JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
    return { publicKey: k.publicKey, privateKey: k.privateKey };
  }
  mkdirSync(dataDir, { recursive: true });
  const k = fresh();
  writeFileSync(file, JSON.stringify(k), { mode: 0o600 });
  return k;
}

/** A random secret kept in DATA_DIR so tokens survive restarts of the embedded setup. */
function persistedSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
