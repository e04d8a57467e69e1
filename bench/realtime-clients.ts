/**
 * The client side of `npm run bench:realtime` (a child process, so the server's memory is measured
 * alone): reads `{ url, users: [{ id, token, url? }] }` as JSON on stdin, connects one MQTT client
 * per entry (subscribed to its topic), prints `{"ready":n,"failed":m}`, then records the latency
 * of every message (`id` carries the sender's performance time, ms) until it reads "report",
 * answers `{"latencies":[...]}` and exits.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { userTopic } from '@masar/shared';

const input = await new Promise<string>((resolve) => {
  let s = '';
  process.stdin.on('data', (d) => {
    s += d.toString();
    const nl = s.indexOf('\n');
    if (nl >= 0) resolve(s.slice(0, nl));
  });
});
const { url, users } = JSON.parse(input) as { url: string; users: { id: string; token: string; url?: string }[] };
const now = () => performance.timeOrigin + performance.now();
const latencies: number[] = [];
const clients: MqttClient[] = [];
let failed = 0;
const BATCH = 200;
for (let i = 0; i < users.length; i += BATCH) {
  await Promise.all(
    users.slice(i, i + BATCH).map(async (u) => {
      try {
        const c = await mqtt.connectAsync(u.url ?? url, {
          clientId: `u:${u.id}:b${i}`,
          username: u.id,
          password: u.token,
          reconnectPeriod: 0,
          keepalive: 30,
          connectTimeout: 30_000,
        });
        await c.subscribeAsync(userTopic(u.id));
        c.on('message', (_t, p) => latencies.push(now() - Number((JSON.parse(p.toString()) as { id: string }).id)));
        clients.push(c);
      } catch {
        failed++;
      }
    }),
  );
}
process.stdout.write(`${JSON.stringify({ ready: clients.length, failed })}\n`);
process.stdin.on('data', (d) => {
  if (!d.toString().includes('report')) return;
  process.stdout.write(`${JSON.stringify({ latencies, connected: clients.filter((c) => c.connected).length })}\n`);
  for (const c of clients) c.end(true);
  process.exit(0);
});
