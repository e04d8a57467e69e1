import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { userTopic, type CallMessage, type CallSignalMessage, type RealtimeMessage } from '@masar/shared';
import { applyRealtimeMessage, resyncRealtime } from '../app/layout/RealtimeBridge';
import { BACKOFF_MAX_MS, RESYNC_DEBOUNCE_MS, backoffMs, followTopic, publishTopic, startRealtime } from './realtime';

/** A stand-in for mqtt.connect: records the options and lets the test drive the events. */
function fakeMqtt() {
  const clients: (EventEmitter & {
    opts: Record<string, unknown>;
    subscribed: string[];
    unsubscribed: string[];
    published: [string, string, unknown][];
    connected: boolean;
    ended: boolean;
  })[] = [];
  return {
    clients,
    mod: {
      connect: (_url: string, opts: Record<string, unknown>) => {
        const c = Object.assign(new EventEmitter(), {
          opts,
          subscribed: [] as string[],
          unsubscribed: [] as string[],
          published: [] as [string, string, unknown][],
          connected: false,
          ended: false,
          subscribe(t: string) {
            c.subscribed.push(t);
          },
          unsubscribe(t: string) {
            c.unsubscribed.push(t);
          },
          publish(t: string, payload: string, o: unknown) {
            c.published.push([t, payload, o]);
          },
          end() {
            c.ended = true;
          },
        });
        clients.push(c);
        return c;
      },
    },
  };
}

const msg: RealtimeMessage = {
  v: 1,
  kind: 'event',
  id: 'e1',
  type: 'offer.created',
  aggregateType: 'load',
  aggregateId: 'l1',
  loadId: 'l1',
  at: new Date(0).toISOString(),
};
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('real-time client', () => {
  it('backs off exponentially to 30 s, with jitter below the step', () => {
    expect(backoffMs(0, () => 0)).toBe(1000);
    expect(backoffMs(3, () => 0)).toBe(8000);
    expect(backoffMs(10, () => 0)).toBe(BACKOFF_MAX_MS);
    expect(backoffMs(0, () => 1)).toBe(700);
  });

  it('signs in with the token and its own client id, subscribes to its topic and hands valid messages on', async () => {
    const f = fakeMqtt();
    const got: RealtimeMessage[] = [];
    const stop = startRealtime({
      uid: 'u1',
      topic: userTopic('u1'),
      token: async () => 'tok',
      onMessage: (m) => got.push(m),
      onResync: () => undefined,
      load: async () => f.mod as never,
      url: 'ws://x/mqtt',
    });
    await flush();
    const c = f.clients[0];
    expect(c.opts).toMatchObject({ username: 'u1', password: 'tok', keepalive: 30, reconnectPeriod: 0 });
    expect(String(c.opts.clientId)).toMatch(/^u:u1:/);
    c.emit('connect');
    expect(c.subscribed).toEqual([userTopic('u1')]);
    c.emit('message', userTopic('u1'), new TextEncoder().encode(JSON.stringify(msg)));
    c.emit('message', userTopic('u1'), new TextEncoder().encode('{"v":2}'));
    c.emit('message', userTopic('u1'), new TextEncoder().encode('not json'));
    expect(got).toEqual([msg]);
    stop();
    expect(c.ended).toBe(true);
  });

  it('hands call messages and call signals (issue 21) to onCall, not to onMessage', async () => {
    const f = fakeMqtt();
    const events: RealtimeMessage[] = [];
    const calls: (CallMessage | CallSignalMessage)[] = [];
    const stop = startRealtime({
      uid: 'u1',
      topic: userTopic('u1'),
      token: async () => 'tok',
      onMessage: (m) => events.push(m),
      onCall: (m) => calls.push(m),
      onResync: () => undefined,
      load: async () => f.mod as never,
      url: 'ws://x/mqtt',
    });
    await flush();
    const c = f.clients[0];
    c.emit('connect');
    const call: CallMessage = {
      v: 1,
      kind: 'call',
      event: 'meetingCreated',
      meetingId: 'm1',
      conversationId: 'c1',
      loadId: 'l1',
      type: 'AudioCall',
      callerId: 'u2',
      deviceId: null,
      at: new Date(0).toISOString(),
    };
    const signal: CallSignalMessage = { v: 1, kind: 'call-signal', meetingId: 'm1', from: 'u2', signal: 'offer', payload: '{}', at: new Date(0).toISOString() };
    for (const m of [call, signal, { ...call, event: 'somethingElse' }, msg]) c.emit('message', userTopic('u1'), new TextEncoder().encode(JSON.stringify(m)));
    expect(calls).toEqual([call, signal]);
    expect(events).toEqual([msg]);
    stop();
  });

  it('lets a feature follow another topic on the same connection, again after a reconnect, and publish on it', async () => {
    const f = fakeMqtt();
    const heard: unknown[] = [];
    const profile: RealtimeMessage[] = [];
    const stop = startRealtime({
      uid: 'u1',
      topic: userTopic('u1'),
      token: async () => 'tok',
      onMessage: (m) => profile.push(m),
      onResync: () => undefined,
      load: async () => f.mod as never,
      url: 'ws://x/mqtt',
    });
    // followed before the connection is up: subscribed on connect
    const unfollow = followTopic('masar/c/1/typing', (d) => heard.push(d));
    expect(publishTopic('masar/c/1/typing', { typing: true })).toBe(false);
    await flush();
    const c = f.clients[0];
    c.connected = true;
    c.emit('connect');
    expect(c.subscribed).toEqual([userTopic('u1'), 'masar/c/1/typing']);
    c.emit('message', 'masar/c/1/typing', new TextEncoder().encode('{"typing":true}'));
    expect(heard).toEqual([{ typing: true }]);
    // the profile handler never sees a followed topic's message
    expect(profile).toEqual([]);
    expect(publishTopic('masar/c/1/typing', { typing: false })).toBe(true);
    expect(c.published).toEqual([['masar/c/1/typing', '{"typing":false}', { qos: 0, retain: false }]]);
    unfollow();
    expect(c.unsubscribed).toEqual(['masar/c/1/typing']);
    c.emit('message', 'masar/c/1/typing', new TextEncoder().encode('{"typing":true}'));
    expect(heard).toHaveLength(1);
    stop();
    expect(publishTopic('masar/c/1/typing', { typing: true })).toBe(false);
  });

  it('re-reads the screen after every connect, the first included, and reconnects after a drop with a fresh token', async () => {
    vi.useFakeTimers();
    try {
      const f = fakeMqtt();
      let n = 0;
      const resync = vi.fn();
      const stop = startRealtime({
        uid: 'u1',
        topic: 't',
        token: async () => `tok${++n}`,
        onMessage: () => undefined,
        onResync: resync,
        load: async () => f.mod as never,
        url: 'ws://x',
      });
      await vi.advanceTimersByTimeAsync(0);
      // issue 48: an offer committed between the page's first read and this connect was never sent here
      f.clients[0].emit('connect');
      await vi.advanceTimersByTimeAsync(RESYNC_DEBOUNCE_MS);
      expect(resync).toHaveBeenCalledTimes(1);
      f.clients[0].emit('close');
      // the first retry waits 0.7–1 s (jitter)
      await vi.advanceTimersByTimeAsync(699 - RESYNC_DEBOUNCE_MS);
      expect(f.clients).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(301 + RESYNC_DEBOUNCE_MS);
      expect(f.clients).toHaveLength(2);
      expect(f.clients[1].opts.password).toBe('tok2');
      f.clients[1].emit('connect');
      await vi.advanceTimersByTimeAsync(RESYNC_DEBOUNCE_MS);
      expect(resync).toHaveBeenCalledTimes(2);
      stop();
      f.clients[1].emit('close');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(f.clients).toHaveLength(2);
      expect(resync).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('re-reads on a tab wake and on `online`, once for a burst; `online` retries a waiting reconnect at once', async () => {
    vi.useFakeTimers();
    const visibility = vi.spyOn(document, 'visibilityState', 'get');
    try {
      const f = fakeMqtt();
      const resync = vi.fn();
      visibility.mockReturnValue('visible');
      const stop = startRealtime({
        uid: 'u1',
        topic: 't',
        token: async () => 'tok',
        onMessage: () => undefined,
        onResync: resync,
        load: async () => f.mod as never,
        url: 'ws://x',
      });
      await vi.advanceTimersByTimeAsync(0);
      // a connect, a wake and `online` within the debounce window: one re-read
      f.clients[0].emit('connect');
      visibility.mockReturnValue('hidden');
      document.dispatchEvent(new Event('visibilitychange'));
      visibility.mockReturnValue('visible');
      document.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new Event('online'));
      await vi.advanceTimersByTimeAsync(RESYNC_DEBOUNCE_MS);
      expect(resync).toHaveBeenCalledTimes(1);
      // visible → visible is no wake
      document.dispatchEvent(new Event('visibilitychange'));
      await vi.advanceTimersByTimeAsync(RESYNC_DEBOUNCE_MS);
      expect(resync).toHaveBeenCalledTimes(1);
      // a wake after being hidden: once
      visibility.mockReturnValue('hidden');
      document.dispatchEvent(new Event('visibilitychange'));
      visibility.mockReturnValue('visible');
      document.dispatchEvent(new Event('visibilitychange'));
      await vi.advanceTimersByTimeAsync(RESYNC_DEBOUNCE_MS);
      expect(resync).toHaveBeenCalledTimes(2);
      // the connection drops; `online` connects now instead of after the backoff, and re-reads
      f.clients[0].emit('close');
      window.dispatchEvent(new Event('online'));
      await vi.advanceTimersByTimeAsync(0);
      expect(f.clients).toHaveLength(2);
      f.clients[1].emit('connect');
      await vi.advanceTimersByTimeAsync(RESYNC_DEBOUNCE_MS);
      expect(resync).toHaveBeenCalledTimes(3);
      stop();
      // stopped: no listener left
      window.dispatchEvent(new Event('online'));
      await vi.advanceTimersByTimeAsync(60_000);
      expect(resync).toHaveBeenCalledTimes(3);
      expect(f.clients).toHaveLength(2);
    } finally {
      visibility.mockRestore();
      vi.useRealTimers();
    }
  });

  it('the re-read refreshes what the profile topic covers, not every query', () => {
    const qc = new QueryClient();
    const spy = vi.spyOn(qc, 'invalidateQueries');
    resyncRealtime(qc);
    const keys = spy.mock.calls.map((c) => JSON.stringify(c[0]?.queryKey));
    expect(keys).toEqual(expect.arrayContaining(['["notifications"]', '["load"]', '["offers"]', '["chat"]', '["accountDetails"]']));
    expect(new Set(keys).size).toBe(keys.length);
    expect(spy.mock.calls.every((c) => c[0]?.queryKey?.length)).toBe(true);
    expect(keys).not.toContain('["loads"]');
  });

  it('asks for a token refresh when the broker refuses the token', async () => {
    const f = fakeMqtt();
    const refused = vi.fn(async () => undefined);
    const stop = startRealtime({
      uid: 'u1',
      topic: 't',
      token: async () => 'old',
      onMessage: () => undefined,
      onResync: () => undefined,
      onAuthRefused: refused,
      load: async () => f.mod as never,
      url: 'ws://x',
    });
    await flush();
    f.clients[0].emit('error', Object.assign(new Error('Connection refused: Bad username or password'), { code: 4 }));
    expect(refused).toHaveBeenCalledTimes(1);
    stop();
  });

  it('a load event refreshes the bell and the load screens; an account event the profile', () => {
    const qc = new QueryClient();
    const spy = vi.spyOn(qc, 'invalidateQueries');
    applyRealtimeMessage(qc, msg);
    const keys = spy.mock.calls.map((c) => JSON.stringify(c[0]?.queryKey));
    expect(keys).toEqual(expect.arrayContaining(['["notifications"]', '["load"]', '["myLoads"]', '["offers"]']));
    expect(keys).not.toContain('["accountDetails"]');
    spy.mockClear();
    applyRealtimeMessage(qc, { ...msg, type: 'account.approved', aggregateType: 'account', aggregateId: 'u1', loadId: null });
    expect(spy.mock.calls.map((c) => JSON.stringify(c[0]?.queryKey))).toEqual(expect.arrayContaining(['["notifications"]', '["accountDetails"]']));
  });
});
