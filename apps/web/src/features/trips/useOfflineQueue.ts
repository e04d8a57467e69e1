import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { tripApi } from './api/trips';
import { enqueue, flush, pending, type NewQueuedItem, type QueuedItem } from './offline-queue';

/**
 * The driver page's view of the offline queue (issue 49): what waits, a way to add to it, and the
 * sync, run when the page opens and on every `online` event. A refusal by the server (not a lost
 * connection) stops the sync and is shown; the item stays queued for the record.
 */
export function useOfflineQueue(token: string | null) {
  const qc = useQueryClient();
  const [items, setItems] = useState<QueuedItem[]>([]);
  const [error, setError] = useState<string | null>(null);
  // a read started earlier never overwrites a newer one (a sync's read and a tap's may cross)
  const reads = useRef(0);
  const refresh = useCallback(async () => {
    const n = ++reads.current;
    const list = await pending().catch(() => []);
    if (n === reads.current) setItems(list);
  }, []);
  const sync = useCallback(async () => {
    if (!token) return;
    const r = await flush((b) => {
      if (b.kind === 'position')
        return tripApi.positions(
          token,
          b.items.map((p) => ({ lat: p.lat, lng: p.lng, at: p.recordedAt })),
          b.items[0].key,
        );
      const [step] = b.items;
      return tripApi.step(token, step.loadId, step.step, step.where, step);
    });
    setError(r.error && !r.offline ? (r.error as Error).message : null);
    await refresh();
    if (r.sent > 0) void qc.invalidateQueries({ queryKey: ['driver-trip'] });
  }, [token, qc, refresh]);
  useEffect(() => {
    void refresh().then(sync);
    const online = () => void sync();
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [refresh, sync]);
  const add = useCallback(
    async (item: NewQueuedItem) => {
      await enqueue(item);
      await refresh();
    },
    [refresh],
  );
  return { items, add, sync, error };
}

export type OfflineQueue = ReturnType<typeof useOfflineQueue>;
