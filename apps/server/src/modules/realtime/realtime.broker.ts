import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import MQEmitterRedis from 'mqemitter-redis';
import aedesPersistenceRedis from 'aedes-persistence-redis';
import { Redis } from 'ioredis';
import type { EventEmitter } from 'node:events';
import {
  realtimeClientIdPrefix,
  TYPING_SIGNAL_MAX_BYTES,
  typingSignalSchema,
  typingTopicConversation,
  userTopic,
  type ProfileTopicMessage,
  type TypingMessage,
} from '@masar/shared';
import { verifyAccessToken } from '../../lib/tokens.ts';

/*
 * The real-time channel (issue 21; docs/realtime.md): an embedded MQTT broker (aedes) behind
 * the product's own port at /mqtt (WebSocket). Nothing to install for `npm start`.
 *
 * - Sign-in: the access token is the MQTT password; a guest token, an expired or forged one, or
 *   a revoked session is refused (CONNACK 4). The client id must be `u:<userId>:…`, so nobody
 *   takes over another user's connection by reusing its id.
 * - ACL (docs/realtime.md "Topics"): a client subscribes to its own profile topic (spec §3
 *   `mqttTopic`) and to the typing topic of a conversation its account is a party of (a team
 *   member acts for its owner; a block refuses it); any other subscription is refused in the
 *   SUBACK (0x80). The server is the only publisher but for typing: a party may publish
 *   `{"typing":true|false}` at QoS 0, unretained, on its conversation's typing topic; the broker
 *   passes on a message it builds, stamped with the author from the connection. A signal that a
 *   block, the other side's chat setting or a team role refuses is dropped; any other publish
 *   (another topic, a stranger, a malformed payload, QoS > 0, retain, a flood) disconnects.
 *   Every check asks the database anew (nothing cached), in the order the client sent them.
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

/**
 * What the broker needs of the chat module (through the session, for a team member): may this
 * connection follow or signal on a conversation's typing topic? null: not a party (or the session
 * is gone); 'refused': a party that may not now (a block; to signal, what refuses sending); else
 * the side and account to stamp on the signal.
 */
export interface RealtimeConversations {
  typing(
    who: { userId: string; sessionId: string },
    conversationId: string,
    act: 'follow' | 'signal',
  ): Promise<{ side: TypingMessage['side']; accountId: string } | 'refused' | null>;
}

interface Log {
  error(o: unknown, m: string): void;
  info(o: unknown, m: string): void;
}

export interface RealtimeOptions {
  jwtSecret: string;
  sessions: RealtimeSessions;
  /** Typing on conversation topics; without it only profile topics exist. */
  conversations?: RealtimeConversations;
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
/** Where a refused typing signal goes: a topic nobody may subscribe to (aedes has no "drop" answer for QoS 0). */
const DROPPED_TOPIC = '$SYS/masar/dropped';
/** Typing signals a connection may publish per window (the web client sends one per 3 s while typing, and one on stop). */
const TYPING_BURST = 20;
const TYPING_WINDOW_MS = 10_000;

interface Bus {
  on(topic: string, listener: (message: unknown, done: () => void) => void): void;
  emit(message: { topic: string }, cb: () => void): void;
}

interface Identity {
  userId: string;
  sessionId: string;
  /** The typing signals of the current rate window (`TYPING_BURST` per `TYPING_WINDOW_MS`). */
  signals: { since: number; count: number };
  /** The client's authorizations so far: each waits for the one before (the order it sent them). */
  queue: Promise<void>;
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

/** `{"typing": boolean}` of at most TYPING_SIGNAL_MAX_BYTES, or null. */
function parseSignal(payload: Buffer | string): { typing: boolean } | null {
  const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
  if (bytes.length > TYPING_SIGNAL_MAX_BYTES) return null;
  try {
    const r = typingSignalSchema.safeParse(JSON.parse(bytes.toString('utf8')));
    return r.success ? { typing: r.data.typing } : null;
  } catch {
    return null;
  }
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
        identities.set(client, { userId, sessionId, signals: { since: 0, count: 0 }, queue: Promise.resolve() });
        done(null, true);
      })
      .catch((err: unknown) => {
        opts.log.error({ err }, 'realtime: authentication failed');
        done(authError(5, 'unavailable'), false);
      });
  };
  /**
   * Run a client's authorization checks one after another, in the order it sent them: aedes
   * handles the packets of one read concurrently, and a `typing:false` checked faster than the
   * `typing:true` before it would leave the other side's indicator on. A SUBACK therefore also
   * says that every publish sent before it was decided.
   */
  function inOrder(me: Identity, check: () => Promise<void>): void {
    me.queue = me.queue.then(check).catch((err: unknown) => opts.log.error({ err }, 'realtime: authorization failed'));
  }

  broker.authorizeSubscribe = (client, sub, done) => {
    const me = identities.get(client);
    // a refused topic is a 0x80 in the SUBACK; the connection stays
    if (!me) return done(null, null);
    inOrder(me, async () => {
      if (sub.topic === userTopic(me.userId)) return done(null, { ...sub, qos: 0 });
      const conversationId = typingTopicConversation(sub.topic);
      const access =
        conversationId && opts.conversations
          ? await opts.conversations.typing(me, conversationId, 'follow').catch((err: unknown) => {
              opts.log.error({ err }, 'realtime: typing check failed');
              return null;
            })
          : null;
      done(null, access && access !== 'refused' ? { ...sub, qos: 0 } : null);
    });
  };
  broker.authorizePublish = (client, packet, done) => {
    // client === null: aedes replaying the will of a client of a vanished instance — nobody to check it against
    if (!client) return done(new Error('no unchecked publishes'));
    const me = identities.get(client);
    const conversationId = typingTopicConversation(packet.topic);
    // only typing, QoS 0, never retained, and a small payload; anything else disconnects
    if (!me || !conversationId || !opts.conversations || packet.qos !== 0 || packet.retain) return done(new Error('clients publish only typing'));
    const signal = parseSignal(packet.payload);
    if (!signal) return done(new Error('typing payload'));
    const now = Date.now();
    if (now - me.signals.since > TYPING_WINDOW_MS) me.signals = { since: now, count: 0 };
    if (++me.signals.count > TYPING_BURST) return done(new Error('typing flood'));
    const conversations = opts.conversations;
    inOrder(me, async () => {
      const access = await conversations.typing(me, conversationId, 'signal').catch((err: unknown) => {
        opts.log.error({ err }, 'realtime: typing check failed');
        return 'refused' as const;
      });
      if (access === null) return done(new Error('not a party'));
      if (access === 'refused') {
        packet.topic = DROPPED_TOPIC;
        packet.payload = Buffer.alloc(0);
        return done(null);
      }
      // the broker's own message: the author from the connection, never the client's bytes
      const message: TypingMessage = {
        v: 1,
        kind: 'typing',
        conversationId,
        side: access.side,
        userId: access.accountId,
        typing: signal.typing,
        at: new Date().toISOString(),
      };
      packet.payload = Buffer.from(JSON.stringify(message));
      done(null);
    });
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
    async publishToUsers(userIds: Iterable<string>, message: ProfileTopicMessage): Promise<void> {
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
