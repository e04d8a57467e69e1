import { REALTIME_KEEPALIVE_SECONDS, REALTIME_PATH, realtimeClientIdPrefix, realtimeMessageSchema, type RealtimeMessage } from '@masar/shared';
import type { MqttClient } from 'mqtt';

/*
 * The web end of the real-time channel (issue 21; docs/realtime.md). One MQTT-over-WebSocket
 * connection per signed-in tab to /mqtt on the page's own origin, the access token as password,
 * subscribed to the profile's `mqttTopic`. The mqtt package (~99 KB gzip) is imported only here,
 * after sign-in, in its own chunk.
 *
 * Reconnects with exponential backoff (1 s doubling to 30 s, with jitter) and a fresh token each
 * time; after every reconnect `onResync` runs, since messages sent while away are not kept.
 */

export interface RealtimeDeps {
  uid: string;
  topic: string;
  /** The current access token (refreshed by the caller's token manager). */
  token: () => Promise<string | null>;
  onMessage: (m: RealtimeMessage) => void;
  /** After a reconnect: re-read what the screen shows. */
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

/** Delay before reconnect attempt `n` (0-based): min·2ⁿ capped at max, minus up to 30 % jitter. */
export function backoffMs(n: number, random = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** n);
  return Math.round(base * (1 - 0.3 * random()));
}

/** The mqtt module; its browser build (dist/mqtt.esm.js) has only a default export. */
async function loadMqtt(): Promise<Pick<typeof import('mqtt'), 'connect'>> {
  const m = await import('mqtt');
  return typeof m.connect === 'function' ? m : (m as unknown as { default: typeof m }).default;
}

const defaultUrl = () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${REALTIME_PATH}`;

/** Start the connection; returns stop(). */
export function startRealtime(deps: RealtimeDeps): () => void {
  let stopped = false;
  let client: MqttClient | null = null;
  let attempt = 0;
  let everConnected = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void connect(), backoffMs(attempt++));
  };

  async function connect() {
    if (stopped) return;
    const [mod, token] = await Promise.all([(deps.load ?? loadMqtt)(), deps.token()]);
    if (stopped) return;
    if (!token) return schedule();
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
      c.subscribe(deps.topic, { qos: 0 });
      if (everConnected) deps.onResync();
      everConnected = true;
    });
    c.on('message', (_topic, payload) => {
      if (client !== c) return;
      try {
        const m = realtimeMessageSchema.safeParse(JSON.parse(new TextDecoder().decode(payload)));
        if (m.success) deps.onMessage(m.data);
      } catch {
        // not JSON: not ours
      }
    });
    c.on('error', (err) => {
      // CONNACK 4 (bad username or password): the token expired or was revoked
      if ((err as { code?: number }).code === 4 && deps.onAuthRefused) void deps.onAuthRefused().catch(() => undefined);
    });
    c.on('close', () => {
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
    client?.end(true);
    client = null;
  };
}
