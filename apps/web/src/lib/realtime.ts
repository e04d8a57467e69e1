import {
  REALTIME_KEEPALIVE_SECONDS,
  REALTIME_PATH,
  callMessageSchema,
  callSignalMessageSchema,
  realtimeClientIdPrefix,
  realtimeMessageSchema,
  type CallMessage,
  type CallSignalMessage,
  type RealtimeMessage,
} from '@masar/shared';
import type { MqttClient } from 'mqtt';

/*
 * The web end of the real-time channel (issue 21; docs/realtime.md). One MQTT-over-WebSocket
 * connection per signed-in tab to /mqtt on the page's own origin, the access token as password,
 * subscribed to the profile's `mqttTopic`. The mqtt package (~99 KB gzip) is imported only here,
 * after sign-in, in its own chunk.
 *
 * Reconnects with exponential backoff (1 s doubling to 30 s, with jitter) and a fresh token each
 * time. `onResync` runs after EVERY connect, the first included (what was committed between the
 * page's first read and the subscription was never sent to this tab; issue 48), and when the tab
 * wakes (visible again after being hidden) or the browser comes back `online` (which also retries a
 * waiting reconnect at once); a burst of these within RESYNC_DEBOUNCE_MS runs it once. Messages sent
 * while away are not kept, so the re-read is what makes the screen equal the database.
 *
 * Features follow further topics on the same connection with `followTopic` (a chat thread's
 * typing topic) and publish with `publishTopic` (typing is the only publish the broker accepts);
 * followed topics are subscribed again after every reconnect.
 */

type TopicListener = (data: unknown) => void;
/** Topics features follow on this tab's connection, with their listeners. */
const followers = new Map<string, Set<TopicListener>>();
/** The tab's connected client, if any. */
let live: MqttClient | null = null;

/**
 * Hear the JSON messages of `topic` (not the profile topic) while the tab is connected, and after
 * reconnects. Returns unfollow. A topic the broker refuses (not a party, a block) stays silent.
 */
export function followTopic(topic: string, listener: TopicListener): () => void {
  let set = followers.get(topic);
  if (!set) {
    set = new Set();
    followers.set(topic, set);
    live?.subscribe(topic, { qos: 0 });
  }
  set.add(listener);
  return () => {
    const s = followers.get(topic);
    if (!s?.delete(listener) || s.size) return;
    followers.delete(topic);
    live?.unsubscribe(topic);
  };
}

/** Publish `data` as JSON on `topic` (QoS 0, not retained) when connected; false when not (nothing is queued). */
export function publishTopic(topic: string, data: unknown): boolean {
  if (!live?.connected) return false;
  live.publish(topic, JSON.stringify(data), { qos: 0, retain: false });
  return true;
}

export interface RealtimeDeps {
  uid: string;
  topic: string;
  /** The current access token (refreshed by the caller's token manager). */
  token: () => Promise<string | null>;
  onMessage: (m: RealtimeMessage) => void;
  /** A call's state change (spec §4 events) or a WebRTC signal for my call (issue 21 "Calls"). */
  onCall?: (m: CallMessage | CallSignalMessage) => void;
  /** After every connect (the first included), a tab wake or `online`, debounced: re-read what the screen shows. */
  onResync: () => void;
  /** The broker refused the token: let the API client refresh it before the next attempt. */
  onAuthRefused?: () => Promise<void>;
  /** ws(s)://host/mqtt by default. */
  url?: string;
  /** The mqtt module (tests pass their own). */
  load?: () => Promise<Pick<typeof import('mqtt'), 'connect'>>;
}

export const BACKOFF_MIN_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;
/** A connect, a tab wake and an `online` event within this window make one re-read (trailing). */
export const RESYNC_DEBOUNCE_MS = 250;
/** The performance mark set at each CONNACK (`performance.getEntriesByName`). */
export const REALTIME_CONNECTED_MARK = 'masar:realtime-connected';

/** Delay before reconnect attempt `n` (0-based): min·2ⁿ capped at max, minus up to 30 % jitter. */
export function backoffMs(n: number, random = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** n);
  return Math.round(base * (1 - 0.3 * random()));
}

type MqttModule = Pick<typeof import('mqtt'), 'connect'>;
let mqttModule: Promise<MqttModule> | null = null;

/**
 * The mqtt module (its own chunk); its browser build (dist/mqtt.esm.js) has only a default export.
 * Memoised: the layout calls it on a signed-in page's first render, so the chunk downloads while the
 * page renders and the socket opens as soon as the token is there (issue 48).
 */
export function loadMqtt(): Promise<MqttModule> {
  mqttModule ??= import('mqtt').then((m) => (typeof m.connect === 'function' ? m : (m as unknown as { default: typeof m }).default));
  mqttModule.catch(() => (mqttModule = null));
  return mqttModule;
}

const defaultUrl = () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${REALTIME_PATH}`;

/** `fn` once, `ms` after the last of a burst of calls (trailing); `cancel` drops a pending one. */
function debounce(fn: () => void, ms: number): (() => void) & { cancel: () => void } {
  let t: ReturnType<typeof setTimeout> | null = null;
  const cancel = () => {
    if (t) clearTimeout(t);
    t = null;
  };
  return Object.assign(
    () => {
      cancel();
      t = setTimeout(() => {
        t = null;
        fn();
      }, ms);
    },
    { cancel },
  );
}

/**
 * Call `onOnline` on the browser's `online` event and `onWake` when the tab becomes visible after
 * having been hidden (a sleeping laptop, a background tab: messages may have been missed). Returns
 * the function that stops listening.
 */
function watchWakes(onOnline: () => void, onWake: () => void): () => void {
  if (typeof window === 'undefined' || typeof document === 'undefined') return () => undefined;
  let hidden = document.visibilityState === 'hidden';
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') hidden = true;
    else if (hidden) {
      hidden = false;
      onWake();
    }
  };
  window.addEventListener('online', onOnline);
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    window.removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}

/** A message of the connection to its listener: a followed topic's, or the profile topic's by kind; anything else is dropped. */
function dispatch(deps: RealtimeDeps, topic: string, payload: Uint8Array): void {
  try {
    const data: unknown = JSON.parse(new TextDecoder().decode(payload));
    if (topic !== deps.topic) {
      for (const l of followers.get(topic) ?? []) l(data);
      return;
    }
    const m = realtimeMessageSchema.safeParse(data);
    if (m.success) return deps.onMessage(m.data);
    const call = callMessageSchema.safeParse(data);
    if (call.success) return deps.onCall?.(call.data);
    const signal = callSignalMessageSchema.safeParse(data);
    if (signal.success) deps.onCall?.(signal.data);
  } catch {
    // not JSON: not ours
  }
}

/** Start the connection; returns stop(). */
export function startRealtime(deps: RealtimeDeps): () => void {
  let stopped = false;
  let client: MqttClient | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  /** Re-read the screen once for a burst of connects, wakes and `online` events. */
  const resync = debounce(() => !stopped && deps.onResync(), RESYNC_DEBOUNCE_MS);

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, backoffMs(attempt++));
  };

  const unwatch = watchWakes(() => {
    // the network is back: retry a waiting reconnect now rather than after its backoff
    if (timer && !client) {
      clearTimeout(timer);
      timer = null;
      attempt = 0;
      void connect();
    }
    resync();
  }, resync);

  async function connect() {
    if (stopped) return;
    const [mod, token] = await Promise.all([(deps.load ?? loadMqtt)(), deps.token()]).catch(() => [null, null] as const);
    if (stopped) return;
    if (!mod || !token) return schedule();
    const c = mod.connect(deps.url ?? defaultUrl(), {
      clientId: `${realtimeClientIdPrefix(deps.uid)}${Math.random().toString(36).slice(2, 10)}`,
      username: deps.uid,
      password: token,
      keepalive: REALTIME_KEEPALIVE_SECONDS,
      // our own loop reconnects, with backoff and a fresh token
      reconnectPeriod: 0,
      connectTimeout: 10_000,
      clean: true,
    });
    client = c;
    c.on('connect', () => {
      attempt = 0;
      if (client === c) live = c;
      for (const topic of [deps.topic, ...followers.keys()]) c.subscribe(topic, { qos: 0 });
      // every connect, the first included: what was committed before the subscription never reached this tab
      resync();
      // the time from navigation to the socket's CONNACK, for e2e timings (issue 48)
      globalThis.performance?.mark?.(REALTIME_CONNECTED_MARK);
    });
    c.on('message', (topic, payload) => client === c && dispatch(deps, topic, payload));
    c.on('error', (err) => {
      // CONNACK 4 (bad username or password): the token expired or was revoked
      if ((err as { code?: number }).code === 4 && deps.onAuthRefused) void deps.onAuthRefused().catch(() => undefined);
    });
    c.on('close', () => {
      if (live === c) live = null;
      if (client !== c) return;
      client = null;
      c.end(true);
      schedule();
    });
  }

  void connect();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    resync.cancel();
    unwatch();
    if (live === client) live = null;
    client?.end(true);
    client = null;
  };
}
