import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import MQEmitterRedis from 'mqemitter-redis';
import aedesPersistenceRedis from 'aedes-persistence-redis';
import { Redis } from 'ioredis';
import type { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import {
  presenceTopicConversation,
  realtimeClientIdPrefix,
  TYPING_SIGNAL_MAX_BYTES,
  typingSignalSchema,
  typingTopicConversation,
  userTopic,
  presenceTopic,
  type PresenceMessage,
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
 * - Presence (docs/realtime.md "Presence"): the broker's own, from the connections it holds. A
 *   party follows `masar/c/<id>/presence` (the ACL of following typing) and hears the other
 *   side's state at once, then its first connection opening and its last closing (any of the
 *   account's users, any instance); the last-seen time is stored (account_presence).
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

/**
 * What the broker needs for presence (docs/realtime.md "Presence"), through the session (a team
 * member counts for its owner): the account a connection acts for, whether it may follow the
 * presence of a conversation's other side (the same rule as following typing: the two parties,
 * not while a block stands), and the accounts' stored last-seen times.
 */
export interface RealtimePresence {
  /** The account a connection acts for (a team member: its owner); null when the session is gone. */
  accountOf(who: { userId: string; sessionId: string }): Promise<string | null>;
  /** null: not a party; 'refused': a block stands; else the other side and its account (whose presence it hears). */
  follow(who: { userId: string; sessionId: string }, conversationId: string): Promise<{ side: PresenceMessage['side']; accountId: string } | 'refused' | null>;
  /** `account_presence.last_seen_at` of these accounts (absent: never seen). */
  lastSeen(accountIds: string[]): Promise<Map<string, Date>>;
  /** Record these accounts as seen now (one statement); the times stored, by account. */
  touch(accountIds: string[]): Promise<Map<string, Date>>;
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
  /** Presence on conversation topics; without it nobody follows presence. */
  presence?: RealtimePresence;
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
/** The internal topic every instance listens on for an account going online or offline. */
const PRESENCE_BUS_TOPIC = '$SYS/masar/presence';
/** How often a connected account's last-seen time is written and its connections' lease renewed. */
const PRESENCE_BEAT_MS = 60_000;
/** A connection an instance stopped renewing (the instance vanished) no longer counts after this. */
const PRESENCE_LEASE_MS = 150_000;

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
  /** Presence: the account it counts for (null: none, no presence), its key in the store, its open/close in order. */
  accountId: string | null;
  presenceKey: string;
  presenceOps: Promise<void>;
  /** The presence topics it follows: conversation id → the other side's account. */
  follows: Map<string, string>;
}

/**
 * Who is connected, across instances: each connection of an account is one entry (its key),
 * so the account is online while it has any. In memory for one instance; on Redis with
 * REDIS_URL (a sorted set per account, scored by the lease's end, renewed every minute by the
 * instance holding it, so a vanished instance's connections stop counting after the lease).
 */
interface PresenceStore {
  /** Count a connection; true when it is the account's first (the account comes online). */
  add(accountId: string, key: string): Promise<boolean>;
  /** Forget a connection; true when it was the account's last (the account goes offline). */
  remove(accountId: string, key: string): Promise<boolean>;
  /** Which of these accounts have a connection now. */
  online(accountIds: string[]): Promise<Set<string>>;
  /** Renew the leases of this instance's connections. */
  renew(entries: [accountId: string, key: string][]): Promise<void>;
}

function memoryPresence(): PresenceStore {
  const byAccount = new Map<string, Set<string>>();
  return {
    async add(a, key) {
      const set = byAccount.get(a) ?? new Set<string>();
      byAccount.set(a, set.add(key));
      return set.size === 1;
    },
    async remove(a, key) {
      const set = byAccount.get(a);
      if (!set?.delete(key)) return false;
      if (set.size === 0) byAccount.delete(a);
      return set.size === 0;
    },
    async online(ids) {
      return new Set(ids.filter((a) => byAccount.has(a)));
    },
    async renew() {},
  };
}

function redisPresence(conn: Redis): PresenceStore {
  const k = (a: string) => `presence:${a}`;
  const n = (r: [Error | null, unknown] | undefined) => Number(r?.[1] ?? 0);
  return {
    async add(a, key) {
      const now = Date.now();
      const r = await conn
        .multi()
        .zremrangebyscore(k(a), '-inf', now)
        .zadd(k(a), now + PRESENCE_LEASE_MS, key)
        .zcard(k(a))
        .pexpire(k(a), PRESENCE_LEASE_MS)
        .exec();
      return n(r?.[2]) === 1;
    },
    async remove(a, key) {
      const r = await conn.multi().zrem(k(a), key).zremrangebyscore(k(a), '-inf', Date.now()).zcard(k(a)).exec();
      return n(r?.[0]) === 1 && n(r?.[2]) === 0;
    },
    async online(ids) {
      if (ids.length === 0) return new Set();
      const p = conn.pipeline();
      const now = Date.now();
      for (const a of ids) p.zcount(k(a), now, '+inf');
      const r = (await p.exec()) ?? [];
      return new Set(ids.filter((_, i) => n(r[i]) > 0));
    },
    async renew(entries) {
      if (entries.length === 0) return;
      const p = conn.pipeline();
      const until = Date.now() + PRESENCE_LEASE_MS;
      for (const [a, key] of entries) p.zadd(k(a), until, key).pexpire(k(a), PRESENCE_LEASE_MS);
      await p.exec();
    },
  };
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

/** The state one broker keeps for its life, shared by the pieces createRealtime wires. */
interface BrokerState {
  opts: RealtimeOptions;
  broker: Aedes;
  store: PresenceStore;
  /** Identity of each connected client of this instance, by client object. */
  identities: Map<Client, Identity>;
  /** Presence work not finished yet (awaited on close). */
  pending: Set<Promise<void>>;
  /** The broker's bus (mqemitter, or mqemitter-redis across instances); aedes' types leave it out. */
  bus: Bus;
  /**
   * Run a client's authorization checks one after another, in the order it sent them: aedes
   * handles the packets of one read concurrently, and a `typing:false` checked faster than the
   * `typing:true` before it would leave the other side's indicator on. A SUBACK therefore also
   * says that every publish sent before it was decided.
   */
  inOrder: (me: Identity, check: () => Promise<void>) => void;
}

/** Sign-in: the access token is the MQTT password, the client id `u:<userId>:…`, the session live; counts the connection's presence. */
function installAuthenticate({ opts, broker, identities }: BrokerState, connected: PresenceTracker['connected']): void {
  broker.authenticate = (client, _username, password, done) => {
    const token = password?.toString('utf8') ?? '';
    verifyAccessToken(token, opts.jwtSecret)
      .then(async (v) => {
        if (!v.ok || v.claims.typ !== 'user') return done(authError(4, 'bad token'), false);
        const { sub: userId, sid: sessionId } = v.claims;
        if (!client.id.startsWith(realtimeClientIdPrefix(userId))) return done(authError(2, 'client id'), false);
        const live = await opts.sessions.liveSessionIds([sessionId]);
        if (!live.has(sessionId)) return done(authError(4, 'session'), false);
        const me: Identity = {
          userId,
          sessionId,
          signals: { since: 0, count: 0 },
          queue: Promise.resolve(),
          accountId: null,
          presenceKey: `${broker.id}:${randomUUID()}`,
          presenceOps: Promise.resolve(),
          follows: new Map(),
        };
        identities.set(client, me);
        // counted before the CONNACK: a client that is connected is online (a failure is logged, not refused)
        if (opts.presence) await connected(me, opts.presence);
        done(null, true);
      })
      .catch((err: unknown) => {
        opts.log.error({ err }, 'realtime: authentication failed');
        done(authError(5, 'unavailable'), false);
      });
  };
}

/** The subscription ACL: one's profile topic, the presence and typing topics of one's conversations. */
function installAuthorizeSubscribe({ opts, broker, identities, inOrder }: BrokerState, mayFollow: PresenceTracker['mayFollow']): void {
  broker.authorizeSubscribe = (client, sub, done) => {
    const me = identities.get(client);
    // a refused topic is a 0x80 in the SUBACK; the connection stays
    if (!me) return done(null, null);
    inOrder(me, async () => {
      if (sub.topic === userTopic(me.userId)) return done(null, { ...sub, qos: 0 });
      const presenceOf = presenceTopicConversation(sub.topic);
      if (presenceOf) {
        const other = opts.presence ? await mayFollow(me, opts.presence, presenceOf) : null;
        if (other) me.follows.set(presenceOf, other.accountId);
        return done(null, other ? { ...sub, qos: 0 } : null);
      }
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
}

/** The publish ACL: a party's typing signal only, passed on as the broker's own stamped message. */
function installAuthorizePublish({ opts, broker, identities, inOrder }: BrokerState): void {
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
}

type PresenceChange = { accountId: string; online: boolean; lastSeenAt: string | null };
type PresenceTracker = ReturnType<typeof presenceTracker>;

/** Send one presence message to one client (QoS 0, never retained; nothing else travels on a presence topic). */
function tell(client: Client, conversationId: string, side: PresenceMessage['side'], accountId: string, online: boolean, lastSeenAt: string | null): void {
  const message: PresenceMessage = { v: 1, kind: 'presence', conversationId, side, userId: accountId, online, lastSeenAt, at: new Date().toISOString() };
  client.publish(
    { cmd: 'publish', topic: presenceTopic(conversationId), payload: Buffer.from(JSON.stringify(message)), qos: 0, retain: false, dup: false },
    () => undefined,
  );
}

/*
 * Presence (docs/realtime.md "Presence"). The broker produces it from the connections it
 * holds: an account is online while any of its connections (its own, its team members') is
 * open on any instance. Its first connection coming and its last one going is announced on the
 * bus; every instance passes it on to its own clients that follow a presence topic of a
 * conversation with that account on the other side, checking the follower anew first. Going
 * offline stores the last-seen time first, so the message and GET /chat/conversations/:id agree.
 */
function presenceTracker({ opts, store, identities, pending, bus, inOrder }: BrokerState) {
  function track(op: () => Promise<void>, me: Identity): Promise<void> {
    const p = (me.presenceOps = me.presenceOps.then(op).catch((err: unknown) => opts.log.error({ err }, 'realtime: presence failed')));
    pending.add(p);
    void p.finally(() => pending.delete(p));
    return p;
  }
  function announce(change: PresenceChange): void {
    bus.emit({ topic: PRESENCE_BUS_TOPIC, payload: JSON.stringify(change) } as { topic: string }, () => undefined);
  }
  /** The other side of a conversation whose presence `me` may follow now, or null. */
  async function mayFollow(me: Identity, presence: RealtimePresence, conversationId: string) {
    const r = await presence.follow(me, conversationId).catch((err: unknown) => {
      opts.log.error({ err }, 'realtime: presence check failed');
      return null;
    });
    return r && r !== 'refused' ? r : null;
  }
  return {
    mayFollow,
    connected: (me: Identity, presence: RealtimePresence): Promise<void> =>
      track(async () => {
        me.accountId = await presence.accountOf(me);
        if (me.accountId && (await store.add(me.accountId, me.presenceKey))) announce({ accountId: me.accountId, online: true, lastSeenAt: null });
      }, me),
    forget: (client: Client): void => {
      const me = identities.get(client);
      if (!me) return;
      identities.delete(client);
      const presence = opts.presence;
      if (!presence) return;
      void track(async () => {
        if (!me.accountId || !(await store.remove(me.accountId, me.presenceKey))) return;
        const seen = (await presence.touch([me.accountId])).get(me.accountId) ?? new Date();
        announce({ accountId: me.accountId, online: false, lastSeenAt: seen.toISOString() });
      }, me);
    },
    /** An account came or went (from any instance): tell this instance's followers of it, each checked anew. */
    onPresence: (change: PresenceChange): void => {
      const presence = opts.presence;
      if (!presence) return;
      for (const [client, me] of identities) {
        for (const [conversationId, other] of me.follows) {
          if (other !== change.accountId) continue;
          inOrder(me, async () => {
            const now = await mayFollow(me, presence, conversationId);
            // a block since: it hears nothing more, and must follow again once the block is lifted
            if (!now) return void me.follows.delete(conversationId);
            if (me.follows.has(conversationId)) tell(client, conversationId, now.side, now.accountId, change.online, change.lastSeenAt);
          });
        }
      }
    },
    /** Every minute: the connected accounts' last-seen time (one statement) and their connections' leases. */
    beat: async (): Promise<void> => {
      const mine = [...identities.values()].filter((i) => i.accountId !== null);
      if (mine.length === 0 || !opts.presence) return;
      await store.renew(mine.map((i) => [i.accountId!, i.presenceKey]));
      await opts.presence.touch([...new Set(mine.map((i) => i.accountId!))]);
    },
  };
}

/** Follows: the other side's state right after the SUBACK of a presence topic; an unsubscribe stops following. */
function installFollows({ opts, broker, store, identities, inOrder }: BrokerState, mayFollow: PresenceTracker['mayFollow']): void {
  // the answer to a follow: the other side's state now, right after the SUBACK
  broker.on('subscribe', (subs, client) => {
    const me = client && identities.get(client);
    const presence = opts.presence;
    if (!me || !presence) return;
    for (const sub of subs) {
      const conversationId = presenceTopicConversation(sub.topic);
      const other = conversationId ? me.follows.get(conversationId) : undefined;
      if (!conversationId || !other) continue;
      inOrder(me, async () => {
        const now = await mayFollow(me, presence, conversationId);
        if (!now) return;
        const [online, seen] = await Promise.all([store.online([now.accountId]), presence.lastSeen([now.accountId])]);
        tell(client, conversationId, now.side, now.accountId, online.has(now.accountId), seen.get(now.accountId)?.toISOString() ?? null);
      });
    }
  });
  broker.on('unsubscribe', (topics, client) => {
    const me = client && identities.get(client);
    for (const topic of topics) {
      const conversationId = presenceTopicConversation(topic);
      if (me && conversationId) me.follows.delete(conversationId);
    }
  });
}

/** Revocation: `sweep()` disconnects this instance's clients whose session was revoked or whose account was suspended or deleted; one sweep at a time. */
function sweeper({ opts, identities }: BrokerState, forget: PresenceTracker['forget']): () => Promise<void> {
  let sweeping: Promise<void> | null = null;
  async function sweepNow(): Promise<void> {
    if (identities.size === 0) return;
    const clients = [...identities.entries()];
    const live = await opts.sessions.liveSessionIds([...new Set(clients.map(([, i]) => i.sessionId))]);
    for (const [client, id] of clients) {
      if (!live.has(id.sessionId)) {
        forget(client);
        client.close();
      }
    }
  }
  return function sweep(): Promise<void> {
    // one sweep at a time; a request during a sweep is answered by the running one
    sweeping ??= sweepNow()
      .catch((err: unknown) => opts.log.error({ err }, 'realtime: sweep failed'))
      .finally(() => {
        sweeping = null;
      });
    return sweeping;
  };
}

/** Listen on the bus for sweep requests and presence changes from any instance; start the sweep and presence timers (cleared by the returned function). */
function startTimers({ opts, bus }: BrokerState, sweep: () => Promise<void>, presence: PresenceTracker): () => void {
  bus.on(SWEEP_TOPIC, (_m: unknown, cb: () => void) => {
    void sweep();
    cb();
  });
  bus.on(PRESENCE_BUS_TOPIC, (m: unknown, cb: () => void) => {
    try {
      presence.onPresence(JSON.parse(String((m as { payload: unknown }).payload)) as PresenceChange);
    } catch (err) {
      opts.log.error({ err }, 'realtime: bad presence message');
    }
    cb();
  });
  const sweepTimer = setInterval(() => void sweep(), opts.sweepSeconds * 1000);
  sweepTimer.unref();
  const presenceTimer = setInterval(
    () => void presence.beat().catch((err: unknown) => opts.log.error({ err }, 'realtime: presence beat failed')),
    PRESENCE_BEAT_MS,
  );
  presenceTimer.unref();
  return () => {
    clearInterval(sweepTimer);
    clearInterval(presenceTimer);
  };
}

export function createRealtime(opts: RealtimeOptions) {
  const redis = opts.redisUrl ? createRedisBus(opts.redisUrl, opts.redisKeyPrefix ?? '', opts.log) : undefined;
  const mq = redis?.mq;
  const persistence = redis?.persistence;
  const broker = new Aedes({ mq, persistence, heartbeatInterval: 30_000, connectTimeout: 10_000, maxClientsIdLength: 120 });
  const state: BrokerState = {
    opts,
    broker,
    store: redis ? redisPresence(redis.conn) : memoryPresence(),
    identities: new Map<Client, Identity>(),
    pending: new Set<Promise<void>>(),
    bus: (broker as unknown as { mq: Bus }).mq,
    inOrder: (me, check) => {
      me.queue = me.queue.then(check).catch((err: unknown) => opts.log.error({ err }, 'realtime: authorization failed'));
    },
  };
  const { store, identities, pending, bus } = state;
  const presence = presenceTracker(state);
  let started = false;
  let stopTimers: (() => void) | null = null;

  installAuthenticate(state, presence.connected);
  installAuthorizeSubscribe(state, presence.mayFollow);
  installAuthorizePublish(state);
  broker.on('clientDisconnect', (client) => presence.forget(client));
  broker.on('clientError', (client) => presence.forget(client));
  installFollows(state, presence.mayFollow);
  const sweep = sweeper(state, presence.forget);

  return {
    broker,
    async start(): Promise<void> {
      if (started) return;
      started = true;
      await broker.listen();
      stopTimers = startTimers(state, sweep, presence);
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
    /**
     * The presence of an account as the chat thread shows it (GET /chat/conversations/:id):
     * online when any of its connections is open on any instance; else its stored last-seen time.
     */
    async presenceOf(accountId: string): Promise<{ online: boolean; lastSeenAt: string | null }> {
      const [online, seen] = await Promise.all([store.online([accountId]), opts.presence?.lastSeen([accountId]) ?? new Map<string, Date>()]);
      return { online: online.has(accountId), lastSeenAt: seen.get(accountId)?.toISOString() ?? null };
    },
    /** Connected clients on this instance. */
    get connected(): number {
      return identities.size;
    },
    async close(): Promise<void> {
      stopTimers?.();
      if (started) await new Promise<void>((resolve) => broker.close(() => resolve()));
      // the closed connections' last-seen times and offline announcements
      await Promise.allSettled([...pending]);
      if (mq) await new Promise<void>((resolve) => mq.close(() => resolve()));
      if (redis) await redis.conn.quit().catch(() => redis.conn.disconnect());
    },
  };
}
export type Realtime = ReturnType<typeof createRealtime>;
