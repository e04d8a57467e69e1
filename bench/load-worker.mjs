// HTTP load generator for the benchmarks: runs autocannon in a worker thread (its own event
// loop, so it does not compete with the server under test) and posts back every latency.
// `paths` (optional): each request takes one of them at random (randomised filters, not one
// repeated URL: bench/trucks.bench.ts); `url` is then the origin they hang from.
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

const job = workerData;
const latencies = [];
const pick = job.paths ? () => job.paths[Math.floor(Math.random() * job.paths.length)] : null;
const inst = autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.duration,
  headers: { authorization: `Bearer ${job.token}` },
  ...(pick ? { requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: pick() }) }] } : {}),
});
inst.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
const r = await inst;
parentPort.postMessage({ latencies, total: r.requests.total, non2xx: r.non2xx, errors: r.errors, seconds: r.duration });
