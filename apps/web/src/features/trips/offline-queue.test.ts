import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { batches, enqueue, flush, pending, type QueuedItem } from './offline-queue';

const LOAD = '01a201c4-0000-7000-8000-000000000009';
const offline = new ApiError(0, 'NETWORK_ERROR', 'Failed to fetch');

describe("the driver's offline queue (IndexedDB, issue 49)", () => {
  it('keeps steps and positions in the order they were made, each with its own key, and sends them in that order once back online', async () => {
    const at = (min: number) => new Date(Date.UTC(2026, 11, 7, 11, min)).toISOString();
    await enqueue({ kind: 'step', loadId: LOAD, step: 'started', where: { geoError: 'unavailable' }, recordedAt: at(5) });
    await enqueue({ kind: 'position', lat: 24.7, lng: 46.7, recordedAt: at(6) });
    await enqueue({ kind: 'step', loadId: LOAD, step: 'to_pickup', where: { lat: 24.71, lng: 46.7 }, recordedAt: at(7) });
    const waiting = await pending();
    expect(waiting.map((i) => (i.kind === 'step' ? i.step : 'position'))).toEqual(['started', 'position', 'to_pickup']);
    expect(new Set(waiting.map((i) => i.key)).size).toBe(3);

    // the connection drops after the first item: the rest stays, in order, with the same keys
    const sent: QueuedItem[] = [];
    const first = await flush(async (batch) => {
      if (sent.length === 1) throw offline;
      sent.push(...batch.items);
    });
    expect(first).toMatchObject({ sent: 1, offline: true });
    const left = await pending();
    expect(left.map((i) => i.key)).toEqual(waiting.slice(1).map((i) => i.key));

    // back online: the rest goes, oldest first, with the device times kept
    const second = await flush(async (batch) => void sent.push(...batch.items));
    expect(second).toMatchObject({ sent: 2, offline: false, error: null });
    expect(sent.map((i) => i.recordedAt)).toEqual([at(5), at(6), at(7)]);
    expect(sent.map((i) => i.key)).toEqual(waiting.map((i) => i.key));
    expect(await pending()).toEqual([]);
  });

  it('sends a run of positions as one request (at most 500), a step alone', () => {
    const pos = (i: number): QueuedItem => ({ kind: 'position', key: `p${i}`, seq: i, lat: 24, lng: 46, recordedAt: '2026-12-07T11:00:00Z' });
    const step: QueuedItem = { kind: 'step', key: 's', seq: 9999, loadId: LOAD, step: 'to_drop', where: {}, recordedAt: '2026-12-07T11:00:00Z' };
    const items = [...Array.from({ length: 240 }, (_, i) => pos(i)), step, ...Array.from({ length: 600 }, (_, i) => pos(10_000 + i))];
    expect(batches(items).map((b) => [b.kind, b.items.length])).toEqual([
      ['position', 240],
      ['step', 1],
      ['position', 500],
      ['position', 100],
    ]);
  });

  it("stops at the server's refusal and keeps the item for the record", async () => {
    await enqueue({ kind: 'step', loadId: LOAD, step: 'at_pickup', where: {}, recordedAt: new Date().toISOString() });
    const refusal = new ApiError(409, 'TRIP_STEP_TIME_BEFORE_PREVIOUS', 'This step was recorded before the previous step.');
    const r = await flush(() => Promise.reject(refusal));
    expect(r).toMatchObject({ sent: 0, offline: false, error: refusal });
    expect(await pending()).toHaveLength(1);
    // two runs at once (an `online` event and the page's open) send each item once
    let calls = 0;
    await Promise.all([flush(async () => void calls++), flush(async () => void calls++)]);
    expect(calls).toBe(1);
    expect(await pending()).toEqual([]);
  });
});
