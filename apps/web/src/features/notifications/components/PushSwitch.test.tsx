import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultNotificationPreferences } from '@masar/shared';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import { NotificationPreferencesSection } from './NotificationPreferencesSection';

/**
 * The "push notifications in this browser" switch (issue 21), with the browser's Push API mocked:
 * permission is asked only when the user turns it on (never on render); the subscription is made
 * with the server's VAPID key and sent to /topics/subscribe with the profile's topic; off
 * unsubscribes; a refusal shows how to allow it; the token is tried 3 times, then given up.
 */
const TOPIC = 'user_0190a5d2-7e7e-7000-8000-000000000001';
const KEY = Buffer.from(new Uint8Array(65).fill(4)).toString('base64url');
const SUB = { endpoint: 'https://push.example.com/send/abc', keys: { p256dh: KEY, auth: 'AAAAAAAAAAAAAAAAAAAAAA' } };

let permission: NotificationPermission;
let current: { toJSON(): typeof SUB; unsubscribe: ReturnType<typeof vi.fn> } | null;
const requestPermission = vi.fn<() => Promise<NotificationPermission>>();
const subscribe = vi.fn();
const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

function mockBrowser() {
  permission = 'default';
  current = null;
  requestPermission.mockReset().mockImplementation(async () => (permission = 'granted'));
  subscribe.mockReset().mockImplementation(async () => (current = { toJSON: () => SUB, unsubscribe: vi.fn(async () => true) }));
  const reg = { pushManager: { getSubscription: async () => current, subscribe } };
  vi.stubGlobal('Notification', {
    get permission() {
      return permission;
    },
    requestPermission,
  });
  vi.stubGlobal('PushManager', class {});
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { register: vi.fn(async () => reg), ready: Promise.resolve(reg), getRegistration: async () => reg },
  });
}

function api() {
  return stubApi((m, p) => {
    if (p === '/user/notification/preferences') return { body: { message: 'OK', data: defaultNotificationPreferences() } };
    if (p === '/accountDetails') return { body: { message: 'OK', data: { id: TOPIC.slice(5), fcmTopic: TOPIC, accountType: 2 } } };
    if (p === '/push/vapid-public-key') return { body: { message: 'OK', data: { publicKey: KEY } } };
    if (m === 'POST' && (p === '/topics/subscribe' || p === '/topics/unsubscribe'))
      return { body: { message: 'OK', data: { subscribed: p === '/topics/subscribe', topic: TOPIC } } };
    return undefined;
  });
}

beforeEach(() => {
  localStorage.clear();
  mockBrowser();
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  warn.mockClear();
  await i18n.changeLanguage('en');
});

describe('push switch', { timeout: 20_000 }, () => {
  it('asks permission only on the switch, subscribes with the VAPID key and the profile topic; off unsubscribes', async () => {
    const calls = api();
    renderWithApp(<NotificationPreferencesSection />, { path: '/carriers/setting' });
    const sw = await screen.findByRole('switch', { name: /Push notifications in this browser/ }, { timeout: 5000 });
    await waitFor(() => expect((sw as HTMLInputElement).disabled).toBe(false));
    expect((sw as HTMLInputElement).checked).toBe(false);
    expect(requestPermission).not.toHaveBeenCalled();

    await userEvent.click(sw);
    await waitFor(() => expect(calls.find((c) => c.path === '/topics/subscribe')).toBeTruthy());
    expect(requestPermission).toHaveBeenCalledTimes(1);
    const opts = subscribe.mock.calls[0][0] as { userVisibleOnly: boolean; applicationServerKey: Uint8Array };
    expect(opts.userVisibleOnly).toBe(true);
    expect(Array.from(opts.applicationServerKey)).toEqual(Array(65).fill(4));
    expect(calls.find((c) => c.path === '/topics/subscribe')!.body).toEqual({ token: SUB, topic: TOPIC });
    await waitFor(() => expect((sw as HTMLInputElement).checked).toBe(true));
    expect(localStorage.getItem('fcmToken')).toBe(SUB.endpoint);
    expect(JSON.parse(localStorage.getItem('fcmSubscribedIds')!)).toEqual([TOPIC]);

    const sub = current!;
    await userEvent.click(sw);
    await waitFor(() => expect(calls.find((c) => c.path === '/topics/unsubscribe')).toBeTruthy());
    expect(calls.find((c) => c.path === '/topics/unsubscribe')!.body).toEqual({ token: SUB, topic: TOPIC });
    await waitFor(() => expect(sub.unsubscribe).toHaveBeenCalled());
    await waitFor(() => expect((sw as HTMLInputElement).checked).toBe(false));
    expect(localStorage.getItem('fcmToken')).toBeNull();
  });

  it('a refused permission is logged and explained; nothing is subscribed', async () => {
    const calls = api();
    requestPermission.mockImplementation(async () => (permission = 'denied'));
    renderWithApp(<NotificationPreferencesSection />, { path: '/carriers/setting' });
    const sw = await screen.findByRole('switch', { name: /Push notifications in this browser/ }, { timeout: 5000 });
    await waitFor(() => expect((sw as HTMLInputElement).disabled).toBe(false));
    await userEvent.click(sw);
    expect(await screen.findByText(/Notifications are blocked for this site/, undefined, { timeout: 5000 })).toBeTruthy();
    expect(subscribe).not.toHaveBeenCalled();
    expect(calls.find((c) => c.path === '/topics/subscribe')).toBeUndefined();
    expect(warn).toHaveBeenCalledWith('Push permission denied');
  });

  it('the token is tried 3 times, then given up (null): only logged, and the switch says it failed', async () => {
    const calls = api();
    subscribe.mockImplementation(async () => {
      throw new Error('push service unavailable');
    });
    renderWithApp(<NotificationPreferencesSection />, { path: '/carriers/setting' });
    const sw = await screen.findByRole('switch', { name: /Push notifications in this browser/ }, { timeout: 5000 });
    await waitFor(() => expect((sw as HTMLInputElement).disabled).toBe(false));
    await userEvent.click(sw);
    expect(await screen.findByText(/could not be turned on/, undefined, { timeout: 5000 })).toBeTruthy();
    expect(subscribe).toHaveBeenCalledTimes(3);
    expect(calls.find((c) => c.path === '/topics/subscribe')).toBeUndefined();
    expect(warn.mock.calls.filter((c) => String(c[0]).startsWith('An error occurred while fetching the token'))).toHaveLength(3);
  });

  it('says so in a browser without push', async () => {
    api();
    vi.stubGlobal('PushManager', undefined);
    // @ts-expect-error -- a browser without the Push API
    delete window.PushManager;
    renderWithApp(<NotificationPreferencesSection />, { path: '/carriers/setting' });
    expect(await screen.findByText(/cannot receive push notifications/, undefined, { timeout: 5000 })).toBeTruthy();
  });
});
