// HTTP load generator for the benchmarks: runs autocannon in a worker thread (its own event
// loop, so it does not compete with the server under test) and posts back every latency.
// `paths` (optional): each request takes one of them at random (randomised filters, not one
// repeated URL: bench/trucks.bench.ts), or in order with `inOrder` (every request a new URL while
// the list lasts: bench/traffic.bench.ts's misses); `url` is then the origin they hang from. A
// path may be `{ path, token }` to carry its own bearer (several signed-in users in one run).
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

const job = workerData;
const latencies = [];
let next = 0;
const pick = job.paths ? () => (job.inOrder ? job.paths[next++ % job.paths.length] : job.paths[Math.floor(Math.random() * job.paths.length)]) : null;
const setupRequest = (req) => {
  const p = pick();
  if (typeof p === 'string') return { ...req, path: p };
  return { ...req, path: p.path, headers: { ...req.headers, authorization: `Bearer ${p.token}` } };
};
const inst = autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.duration,
  headers: job.token ? { authorization: `Bearer ${job.token}` } : {},
  ...(pick ? { requests: [{ method: 'GET', setupRequest }] } : {}),
});
inst.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
const r = await inst;
parentPort.postMessage({ latencies, total: r.requests.total, non2xx: r.non2xx, errors: r.errors, seconds: r.duration });
