import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { conversationTypingTopic, type TypingMessage } from '@masar/shared';
import { TYPING_SEND_EVERY_MS, TYPING_SHOW_MS, typingSender, useTyping } from './useTyping';

/** The tab's real-time connection, as the hook sees it: followed topics and what was published. */
const rt = vi.hoisted(() => ({
  listeners: new Map<string, (data: unknown) => void>(),
  published: [] as [string, unknown][],
}));
vi.mock('../../../lib/realtime', () => ({
  followTopic: (topic: string, l: (data: unknown) => void) => {
    rt.listeners.set(topic, l);
    return () => rt.listeners.delete(topic);
  },
  publishTopic: (topic: string, data: unknown) => {
    rt.published.push([topic, data]);
    return true;
  },
}));

const CONV = '0193a000-0000-7000-8000-0000000000c1';
const TOPIC = conversationTypingTopic(CONV);
const signal = (side: TypingMessage['side'], typing: boolean): TypingMessage => ({
  v: 1,
  kind: 'typing',
  conversationId: CONV,
  side,
  userId: side === 'shipper' ? 'S' : 'C',
  typing,
  at: new Date().toISOString(),
});
const hear = (m: unknown) => act(() => rt.listeners.get(TOPIC)!(m));

beforeEach(() => {
  vi.useFakeTimers();
  rt.listeners.clear();
  rt.published.length = 0;
});
afterEach(() => vi.useRealTimers());

describe('"is typing…" of the other side', () => {
  it('shows on their signal, stays while they keep signalling, and goes 5 s after the last one', () => {
    const { result } = renderHook(() => useTyping(CONV, 'carrier'));
    expect(result.current.theirTyping).toBe(false);
    hear(signal('shipper', true));
    expect(result.current.theirTyping).toBe(true);
    // they keep typing: a signal every 3 s keeps it up past 5 s
    act(() => {
      vi.advanceTimersByTime(TYPING_SEND_EVERY_MS);
    });
    hear(signal('shipper', true));
    act(() => {
      vi.advanceTimersByTime(TYPING_SHOW_MS - 1);
    });
    expect(result.current.theirTyping).toBe(true);
    // then silence: gone 5 s after the last signal
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(result.current.theirTyping).toBe(false);
  });

  it('goes at once on their stop, and ignores my own side, other conversations and junk', () => {
    const { result, unmount } = renderHook(() => useTyping(CONV, 'carrier'));
    hear(signal('shipper', true));
    hear(signal('shipper', false));
    expect(result.current.theirTyping).toBe(false);
    // the stop's timer is gone too: a later start is not cut short by the earlier one
    hear(signal('shipper', true));
    act(() => {
      vi.advanceTimersByTime(TYPING_SHOW_MS - 1);
    });
    expect(result.current.theirTyping).toBe(true);
    hear(signal('shipper', false));

    hear(signal('carrier', true));
    hear({ ...signal('shipper', true), conversationId: 'other' });
    hear({ typing: true });
    hear('typing');
    expect(result.current.theirTyping).toBe(false);
    unmount();
    expect(rt.listeners.has(TOPIC)).toBe(false);
  });

  it('follows nothing until my side is known', () => {
    renderHook(() => useTyping(CONV, undefined));
    expect(rt.listeners.size).toBe(0);
  });
});

describe('my typing signals', () => {
  it('sends typing at most once per 3 s while typing, and one stop after a start', () => {
    let now = 0;
    const sent: boolean[] = [];
    let online = false;
    const s = typingSender(
      (t) => online && sent.push(t) > 0,
      () => now,
    );
    // not connected yet: nothing sent, and the next keystroke tries again
    s.typed();
    s.stopped();
    online = true;
    s.stopped();
    expect(sent).toEqual([]);
    s.typed();
    now += 1_000;
    s.typed();
    now += TYPING_SEND_EVERY_MS - 1_001;
    s.typed();
    expect(sent).toEqual([true]);
    now += 1;
    s.typed();
    expect(sent).toEqual([true, true]);
    s.stopped();
    s.stopped();
    expect(sent).toEqual([true, true, false]);
    // typing again right after a stop is a new start
    s.typed();
    expect(sent).toEqual([true, true, false, true]);
  });

  it('publishes on the conversation topic, and a stop when I leave the thread', () => {
    const { result, unmount } = renderHook(() => useTyping(CONV, 'carrier'));
    act(() => result.current.typed());
    act(() => result.current.typed());
    expect(rt.published).toEqual([[TOPIC, { typing: true }]]);
    unmount();
    expect(rt.published).toEqual([
      [TOPIC, { typing: true }],
      [TOPIC, { typing: false }],
    ]);
  });
});
