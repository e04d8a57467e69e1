import { createStore, delMany, entries, set, type UseStore } from 'idb-keyval';
import { POSITIONS_MAX_BATCH, type PLAIN_TRIP_STEPS } from '@masar/shared';
import { ApiError } from '../../lib/api';
import type { Where } from './api/trips';

/**
 * The driver's offline queue (issue 49): a step tapped or a position fixed without signal waits in
 * IndexedDB (idb-keyval, its own database `masar-driver`), each item with the device's time and
 * its own idempotency key, and is sent in the order it was made when the connection returns (on
 * `online` and when the page opens). The server answers a step it already has as a replay, so an
 * item sent twice (a tab killed mid-send) is harmless. Proof photos are not queued: they need a
 * connection. Items are sent strictly in order; the first that fails stops the run and stays.
 */
export type QueuedItem =
  | { kind: 'step'; key: string; seq: number; loadId: string; step: (typeof PLAIN_TRIP_STEPS)[number]; where: Where; recordedAt: string }
  | { kind: 'position'; key: string; seq: number; lat: number; lng: number; recordedAt: string };

/** What enqueue takes: the item without its key and order, which the queue gives. */
export type NewQueuedItem = QueuedItem extends infer I ? (I extends QueuedItem ? Omit<I, 'key' | 'seq'> : never) : never;

let store: UseStore | null = null;
const queueStore = () => (store ??= createStore('masar-driver', 'queue'));

/** Order of items made in the same millisecond. */
let counter = 0;

/** Queue an item: its idempotency key is made now, so every resend of it is the same request. */
export async function enqueue(item: NewQueuedItem): Promise<QueuedItem> {
  const queued = { ...item, key: crypto.randomUUID(), seq: Date.now() * 1000 + (counter++ % 1000) } as QueuedItem;
  await set(queued.key, queued, queueStore());
  return queued;
}

/** Everything waiting, oldest first. */
export async function pending(): Promise<QueuedItem[]> {
  const all = await entries<string, QueuedItem>(queueStore());
  return all.map(([, v]) => v).sort((a, b) => a.seq - b.seq);
}

/** Whether an error means "no connection" (keep the item, try again later) rather than a refusal. */
export const isOffline = (e: unknown) => e instanceof ApiError && (e.status === 0 || e.code === 'NETWORK_ERROR');

/**
 * What one request sends: a step alone, or a run of consecutive positions (at most
 * POSITIONS_MAX_BATCH, one request under the first's key: 240 fixes of a trip through the desert
 * are a single call, not 240 against the per-token rate limit).
 */
export type QueuedBatch =
  { kind: 'step'; items: [Extract<QueuedItem, { kind: 'step' }>] } | { kind: 'position'; items: Extract<QueuedItem, { kind: 'position' }>[] };

/** The waiting items cut into requests, in order. */
export function batches(items: QueuedItem[]): QueuedBatch[] {
  const out: QueuedBatch[] = [];
  for (const item of items) {
    const last = out.at(-1);
    if (item.kind === 'position' && last?.kind === 'position' && last.items.length < POSITIONS_MAX_BATCH) last.items.push(item);
    else out.push(item.kind === 'step' ? { kind: 'step', items: [item] } : { kind: 'position', items: [item] });
  }
  return out;
}

/**
 * Send what is waiting, oldest first (batches); a batch's items are removed once the server took
 * them (a replay counts). The first failure stops the run and is returned: no connection
 * (`offline: true`), or the server's refusal (the items stay for the record, and for the driver to
 * see). Returns how many items were sent.
 */
export function flush(send: (batch: QueuedBatch) => Promise<unknown>): Promise<FlushResult> {
  // one run at a time (an `online` event and the page's open may come together): the second waits for the first
  running ??= run(send).finally(() => (running = null));
  return running;
}

type FlushResult = { sent: number; error: unknown; offline: boolean };
let running: Promise<FlushResult> | null = null;

async function run(send: (batch: QueuedBatch) => Promise<unknown>): Promise<FlushResult> {
  let sent = 0;
  for (const batch of batches(await pending())) {
    try {
      await send(batch);
    } catch (e) {
      return { sent, error: e, offline: isOffline(e) };
    }
    await delMany(
      batch.items.map((i) => i.key),
      queueStore(),
    );
    sent += batch.items.length;
  }
  return { sent, error: null, offline: false };
}
