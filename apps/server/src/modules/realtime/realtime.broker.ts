import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import MQEmitterRedis from 'mqemitter-redis';
import aedesPersistenceRedis from 'aedes-persistence-redis';
import { Redis } from 'ioredis';
import type { EventEmitter } from 'node:events';
import { realtimeClientIdPrefix, userTopic, type RealtimeMessage } from '@masar/shared';
import { verifyAccessToken } from '../../lib/tokens.ts';

/*
 * The real-time channel (issue 21; docs/realtime.md): an embedded MQTT broker (aedes) behind
 * the product's own port at /mqtt (WebSocket). Nothing to install for `npm start`.
 *
 * - Sign-in: the access token is the MQTT password; a guest token, an expired or forged one, or
 *   a revoked session is refused (CONNACK 4). The client id must be `u:<userId>:…`, so nobody
 *   takes over another user's connection by reusing its id.
 * - ACL: a client subscribes only to its own profile topic (spec §3 `mqttTopic`); any other
 *   subscription is refused in the SUBACK (0x80). Clients publish nothing (the server is the only
 *   publisher; a client that tries is disconnected).
 * - Revocation: every instance re-checks its connected sessions on a sweep (one statement for
 *   all of them) every `sweepSeconds`, and at once when any instance asks (logout, suspension):
 *   a revoked session, or a suspended or deleted account, is disconnected.
 * - Several instances: with REDIS_URL the brokers share one MQTT bus (mqemitter-redis) and
 *   session state (aedes-persistence-redis 12, keys under REDIS_KEY_PREFIX + `mqtt:`), so a
 *   message published on one instance reaches a client connected to any other.
 */

/** What the broker needs of the auth module: which sessions are still live. */
export interface RealtimeSessions {
  liveSessionIds(ids: readonly string[]): Promise<Set<string>>;
}

interface Log {
  error(o: unknown, m: string): void;
  info(o: unknown, m: string): void;
}

export interface RealtimeOptions {
  jwtSecret: string;
  sessions: RealtimeSessions;
  /** Share one bus and session state across instances (mqemitter-redis, aedes-persistence-redis). */
  redisUrl?: string;
  /** Prefix of the broker's session keys in Redis (REDIS_KEY_PREFIX; `mqtt:` is added). */
  redisKeyPrefix?: string;
  /** Seconds between sweeps of the connected sessions (revoked → disconnected). */
  sweepSeconds: number;
  log: Log;
}

/** The internal topic every instance listens on to sweep its connections at once. */
const SWEEP_TOPIC = '$SYS/masar/sweep';

interface Bus {
  on(topic: string, listener: (message: unknown, done: () => void) => void): void;
  emit(message: { topic: string }, cb: () => void): void;
}

interface Identity {
  userId: string;
  sessionId: string;
}

/**
 * The cross-instance broker state on Redis: the MQTT bus (mqemitter-redis) and the session
 * store (aedes-persistence-redis 12, its keys under `<prefix>mqtt:`). Their connections are made
 * here, not by the libraries, for two reasons:
 * - `disableClientInfo`: ioredis ≥ 5.8.2 may interleave its CLIENT SETINFO handshake with the
 *   queued SUBSCRIBE and then send the INFO ready check on a connection already in subscriber
 *   mode; Redis refuses it and the connection fails (redis/ioredis#2037, open). Seen in CI as an
 *   instance crashing at start.
 * - a Redis error is logged, never thrown: mqemitter-redis re-emits connection errors on an
 *   emitter with no listener, which would end the process; ioredis reconnects on its own.
 */
function createRedisBus(url: string, keyPrefix: string, log: Log) {
  // our ioredis (6) in place of the libraries' own (5): the same client API, other type identity
  type Conn = NonNullable<Parameters<typeof MQEmitterRedis>[0]>['subConn'];
  const connection = (extra: { keyPrefix?: string } = {}) =>
    new Redis(url, { disableClientInfo: true, connectTimeout: 5_000, ...extra }).on('error', (err) => log.error({ err }, 'realtime: Redis connection error'));
  const mq = MQEmitterRedis({ subConn: connection() as unknown as Conn, pubConn: connection() as unknown as Conn });
  (mq as unknown as { state: EventEmitter }).state.on('error', (err: unknown) => log.error({ err }, 'realtime: Redis bus error'));
  const conn = connection({ keyPrefix: `${keyPrefix}mqtt:` });
  const persistence = aedesPersistenceRedis({ conn });
  return { mq, persistence, conn };
}

const authError = (code: 4 | 2 | 5, message: string): AuthenticateError => Object.assign(new Error(message), { returnCode: code });

export function createRealtime(opts: RealtimeOptions) {
  const redis = opts.redisUrl ? createRedisBus(opts.redisUrl, opts.redisKeyPrefix ?? '', opts.log) : undefined;
  const mq = redis?.mq;
  const persistence = redis?.persistence;
  const broker = new Aedes({ mq, persistence, heartbeatInterval: 30_000, connectTimeout: 10_000, maxClientsIdLength: 120 });
  /** Identity of each connected client of this instance, by client object. */
  const identities = new Map<Client, Identity>();
  let started = false;
  let sweepTimer: NodeJS.Timeout | null = null;
  let sweeping: Promise<void> | null = null;
  /** The broker's bus (mqemitter, or mqemitter-redis across instances); aedes' types leave it out. */
  const bus = (broker as unknown as { mq: Bus }).mq;

  broker.authenticate = (client, _username, password, done) => {
    const token = password?.toString('utf8') ?? '';
    verifyAccessToken(token, opts.jwtSecret)
      .then(async (v) => {
        if (!v.ok || v.claims.typ !== 'user') return done(authError(4, 'bad token'), false);
        const { sub: userId, sid: sessionId } = v.claims;
        if (!client.id.startsWith(realtimeClientIdPrefix(userId))) return done(authError(2, 'client id'), false);
        const live = await opts.sessions.liveSessionIds([sessionId]);
        if (!live.has(sessionId)) return done(authError(4, 'session'), false);
        identities.set(client, { userId, sessionId });
        done(null, true);
      })
      .catch((err: unknown) => {
        opts.log.error({ err }, 'realtime: authentication failed');
        done(authError(5, 'unavailable'), false);
      });
  };
  broker.authorizeSubscribe = (client, sub, done) => {
    const me = identities.get(client);
    // a refused topic is a 0x80 in the SUBACK; the connection stays
    if (!me || sub.topic !== userTopic(me.userId)) return done(null, null);
    done(null, { ...sub, qos: 0 });
  };
  broker.authorizePublish = (client, _packet, done) => {
    // only the server publishes (client === null for the broker's own publishes)
    if (client) return done(new Error('clients do not publish'));
    done(null);
  };
  broker.on('clientDisconnect', (client) => identities.delete(client));
  broker.on('clientError', (client) => identities.delete(client));

  /** Disconnect this instance's clients whose session was revoked or whose account was suspended or deleted. */
  async function sweepNow(): Promise<void> {
    if (identities.size === 0) return;
    const clients = [...identities.entries()];
    const live = await opts.sessions.liveSessionIds([...new Set(clients.map(([, i]) => i.sessionId))]);
    for (const [client, id] of clients) {
      if (!live.has(id.sessionId)) {
        identities.delete(client);
        client.close();
      }
    }
  }
  function sweep(): Promise<void> {
    // one sweep at a time; a request during a sweep is answered by the running one
    sweeping ??= sweepNow()
      .catch((err: unknown) => opts.log.error({ err }, 'realtime: sweep failed'))
      .finally(() => {
        sweeping = null;
      });
    return sweeping;
  }

  return {
    broker,
    async start(): Promise<void> {
      if (started) return;
      started = true;
      await broker.listen();
      bus.on(SWEEP_TOPIC, (_m: unknown, cb: () => void) => {
        void sweep();
        cb();
      });
      sweepTimer = setInterval(() => void sweep(), opts.sweepSeconds * 1000);
      sweepTimer.unref();
    },
    /** Attach one WebSocket connection (the /mqtt route). */
    handle(stream: Duplex, req: IncomingMessage): void {
      broker.handle(stream, req);
    },
    /**
     * Publish `message` to each user's profile topic (QoS 0, not retained): to the clients of every
     * instance when the bus is shared. Resolves when handed to the bus.
     */
    async publishToUsers(userIds: Iterable<string>, message: RealtimeMessage): Promise<void> {
      // a process that never started the broker (the admin CLI, a test without a server) has no clients
      if (!started || broker.closed) return;
      const payload = Buffer.from(JSON.stringify(message));
      await Promise.all(
        [...new Set(userIds)].map(
          (id) =>
            new Promise<void>((resolve, reject) =>
              broker.publish({ cmd: 'publish', topic: userTopic(id), payload, qos: 0, retain: false, dup: false }, (err) => (err ? reject(err) : resolve())),
            ),
        ),
      );
    },
    /** Ask every instance to sweep its connections now (after a logout or a suspension). */
    requestSweep(): void {
      bus.emit({ topic: SWEEP_TOPIC }, () => undefined);
    },
    /** Sweep this instance's connections now (tests). */
    sweep,
    /** Connected clients on this instance. */
    get connected(): number {
      return identities.size;
    },
    async close(): Promise<void> {
      if (sweepTimer) clearInterval(sweepTimer);
      if (started) await new Promise<void>((resolve) => broker.close(() => resolve()));
      if (mq) await new Promise<void>((resolve) => mq.close(() => resolve()));
      if (redis) await redis.conn.quit().catch(() => redis.conn.disconnect());
    },
  };
}
export type Realtime = ReturnType<typeof createRealtime>;
