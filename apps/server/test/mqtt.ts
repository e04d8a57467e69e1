import mqtt, { type MqttClient } from 'mqtt';
import type { TestContext } from './helpers.ts';

/**
 * The MQTT side of the real-time integration tests (docs/realtime.md): a test app listening on a
 * real port, the `mqtt` client the web app uses, and the small waits those tests share.
 */

/** Listen on a free local port and answer the broker's WebSocket URL (`ws://…/mqtt`). */
export async function listenForMqtt(t: TestContext): Promise<string> {
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `${address.replace('http', 'ws')}/mqtt`;
}

/**
 * `connect(u, o?)` signs `u` in to the broker at `url()` by access token (a random client id unless
 * `o.clientId`, the token unless `o.password`) with no reconnect; `closeAll()` ends every client it
 * opened (for `afterAll`). `url` is read per call, so a file may start its server in `beforeAll`.
 */
export function mqttClients(url: () => string) {
  const open: MqttClient[] = [];
  const connect = async (u: { id: string; accessToken: string }, o: { clientId?: string; password?: string } = {}) => {
    const c = await mqtt.connectAsync(url(), {
      clientId: o.clientId ?? `u:${u.id}:${Math.random().toString(36).slice(2, 8)}`,
      username: u.id,
      password: o.password ?? u.accessToken,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
      keepalive: 30,
    });
    open.push(c);
    return c;
  };
  const closeAll = async () => {
    await Promise.all(open.map((c) => c.endAsync(true).catch(() => undefined)));
  };
  return { connect, closeAll };
}

/** Poll `what` every 20 ms until it holds; throws `timed out` after `ms`. */
export const until = async (what: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** Resolves once `c` is closed (at once if it already is). */
export const closed = (c: MqttClient) => new Promise<void>((r) => (c.disconnected || !c.connected ? r() : c.once('close', () => r())));
