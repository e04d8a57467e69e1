// HTTP load generator for the benchmarks: runs autocannon in a worker thread (its own event
// loop, so it does not compete with the server under test) and posts back every latency.
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

const job = workerData;
const latencies = [];
const inst = autocannon({ url: job.url, connections: job.connections, duration: job.duration, headers: { authorization: `Bearer ${job.token}` } });
inst.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
const r = await inst;
parentPort.postMessage({ latencies, total: r.requests.total, non2xx: r.non2xx, errors: r.errors, seconds: r.duration });
