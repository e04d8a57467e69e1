import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, screen } from '@testing-library/react';
import { presenceTopic, type PresenceMessage } from '@masar/shared';
import i18n, { loadNamespaces } from '../../../i18n';
import { setDigitSystem } from '../../../lib/digits';
import { renderWithApp } from '../../../test/render';
import { usePresence } from '../hooks/usePresence';
import { PresenceLine } from './PresenceLine';

/** The tab's real-time connection, as the hook sees it: the followed topics. */
const rt = vi.hoisted(() => ({ listeners: new Map<string, (data: unknown) => void>() }));
vi.mock('../../../lib/realtime', () => ({
  followTopic: (topic: string, l: (data: unknown) => void) => {
    rt.listeners.set(topic, l);
    return () => rt.listeners.delete(topic);
  },
  publishTopic: () => true,
}));

const CONV = '0193a000-0000-7000-8000-0000000000c1';
const NOW = Date.parse('2026-11-27T10:00:00.000Z');
const minutesAgo = (n: number) => new Date(NOW - n * 60_000).toISOString();
const message = (side: PresenceMessage['side'], online: boolean, lastSeenAt: string | null): PresenceMessage => ({
  v: 1,
  kind: 'presence',
  conversationId: CONV,
  side,
  userId: side === 'shipper' ? 'S' : 'C',
  online,
  lastSeenAt,
  at: new Date(NOW).toISOString(),
});

beforeEach(() => rt.listeners.clear());
/** Render the line anew for `presence` at NOW. */
const show = (presence: { online: boolean; lastSeenAt: string | null }, dir: 'ltr' | 'rtl' = 'ltr') => {
  cleanup();
  renderWithApp(<PresenceLine presence={presence} now={() => NOW} />, { dir });
};
afterEach(async () => {
  cleanup();
  setDigitSystem(null);
  await i18n.changeLanguage('en');
});

describe('the presence line of a chat thread', () => {
  it('says "Online", or "Last seen …" relative to now, and nothing for a side never seen', async () => {
    await loadNamespaces(['chat'], 'en');
    show({ online: true, lastSeenAt: minutesAgo(90) });
    expect(screen.getByTestId('chat-presence').textContent).toBe('Online');
    show({ online: false, lastSeenAt: minutesAgo(5) });
    expect(screen.getByTestId('chat-presence').textContent).toBe('Last seen 5 minutes ago');
    show({ online: false, lastSeenAt: minutesAgo(3 * 60) });
    expect(screen.getByTestId('chat-presence').textContent).toBe('Last seen 3 hours ago');
    // a time a little ahead of this device's clock is not "in a few seconds"
    show({ online: false, lastSeenAt: minutesAgo(-1) });
    expect(screen.getByTestId('chat-presence').textContent).toBe('Last seen a few seconds ago');
    show({ online: false, lastSeenAt: null });
    expect(screen.queryByTestId('chat-presence')).toBeNull();
  });

  it('in Arabic: «متصل الآن», and the last-seen in Arabic words and Arabic-Indic digits', async () => {
    await loadNamespaces(['chat'], 'ar');
    await i18n.changeLanguage('ar');
    show({ online: true, lastSeenAt: null }, 'rtl');
    expect(screen.getByTestId('chat-presence').textContent).toBe('متصل الآن');
    show({ online: false, lastSeenAt: minutesAgo(5) }, 'rtl');
    // the Arabic dayjs locale arrives in its own chunk; then the line is rewritten in Arabic
    expect(await screen.findByText('آخر ظهور منذ ٥ دقائق')).toBeTruthy();
    // Western digits when the reader chose them
    act(() => setDigitSystem('latn'));
    expect(await screen.findByText('آخر ظهور منذ 5 دقائق')).toBeTruthy();
  });

  it('follows the presence topic: the other side’s messages replace the API’s state, my side’s are ignored', () => {
    const initial = { online: false, lastSeenAt: minutesAgo(10) };
    const { result, unmount } = renderHook(() => usePresence(CONV, 'carrier', initial));
    expect(result.current).toEqual(initial);
    const hear = (m: PresenceMessage) => act(() => rt.listeners.get(presenceTopic(CONV))!(m));
    hear(message('shipper', true, null));
    expect(result.current).toEqual({ online: true, lastSeenAt: null });
    // my own side (another tab, my team) is not theirs; a malformed message neither
    hear(message('carrier', false, minutesAgo(1)));
    act(() => rt.listeners.get(presenceTopic(CONV))!({ online: false }));
    expect(result.current).toEqual({ online: true, lastSeenAt: null });
    hear(message('shipper', false, minutesAgo(0)));
    expect(result.current).toEqual({ online: false, lastSeenAt: minutesAgo(0) });
    unmount();
    expect(rt.listeners.has(presenceTopic(CONV))).toBe(false);
  });
});
