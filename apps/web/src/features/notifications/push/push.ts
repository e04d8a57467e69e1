import type { PushToken } from '@masar/shared';
import { masar, unwrap } from '../../../lib/api';
import { KEYS } from '../../../lib/storage';

/*
 * Web push in the browser (issue 21; spec §4 push topic sync, §7 /topics/subscribe and
 * /topics/unsubscribe, §8 "push permission denied is logged"; docs/notifications.md "Web push").
 * Loaded lazily: with the settings page (the switch) and, when this browser has push on, after
 * sign-in (the topic sync). Permission is asked only from the switch (a user action), never on load.
 * The spec's token flow: the push subscription ("token") is requested from the push service
 * with the server's public key after support is confirmed, up to 3 attempts, null on error; the
 * topic calls' failures are only logged.
 */

const SW_URL = '/sw.js';
const ATTEMPTS = 3;

/** This browser can receive web push (service worker, Push API and notifications). */
export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** What the switch shows: unsupported, blocked (permission denied), on (subscribed here) or off. */
export type PushState = 'unsupported' | 'denied' | 'on' | 'off';

const storedTopics = (): string[] => {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KEYS.fcmSubscribedIds) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};
const store = (endpoint: string | null, topics: string[]) => {
  if (endpoint) localStorage.setItem(KEYS.fcmToken, endpoint);
  else localStorage.removeItem(KEYS.fcmToken);
  if (topics.length) localStorage.setItem(KEYS.fcmSubscribedIds, JSON.stringify(topics));
  else localStorage.removeItem(KEYS.fcmSubscribedIds);
};

/** The current state of push in this browser (no prompt). */
export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  if (Notification.permission !== 'granted' || !localStorage.getItem(KEYS.fcmToken)) return 'off';
  const reg = await navigator.serviceWorker.getRegistration(SW_URL);
  return (await reg?.pushManager.getSubscription()) ? 'on' : 'off';
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/**
 * This browser's push subscription as the API takes it (the spec's device token), made with the
 * server's VAPID key when there is none: up to 3 attempts; null on error (logged).
 */
export async function getPushToken(): Promise<PushToken | null> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      const reg = await navigator.serviceWorker.register(SW_URL, { scope: '/' });
      await navigator.serviceWorker.ready;
      let sub = await reg.pushManager.getSubscription();
      if (!sub) {
        const { publicKey } = await unwrap(masar.GET('/api/v1/push/vapid-public-key'));
        sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
      }
      const json = sub.toJSON();
      if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) throw new Error('incomplete push subscription');
      return { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } };
    } catch (err) {
      console.warn(`An error occurred while fetching the token (attempt ${attempt} of ${ATTEMPTS})`, err);
    }
  }
  return null;
}

/** POST /topics/subscribe or /topics/unsubscribe; failures only logged (spec §7). */
async function topicCall(path: '/api/v1/topics/subscribe' | '/api/v1/topics/unsubscribe', token: PushToken, topic: string): Promise<boolean> {
  try {
    // eslint-disable-next-line no-restricted-syntax -- the spec's topic sync runs outside any form (after sign-in, before logout): failures are only logged
    await unwrap(masar.POST(path, { body: { token, topic } }));
    return true;
  } catch (err) {
    console.warn(`push topic call ${path} failed`, err);
    return false;
  }
}

/**
 * Spec §4 topic sync: with push on in this browser (a stored push id and permission), subscribe
 * it to the profile's topic; a different topic stored before (another account, a team joined or
 * left) is unsubscribed first; the list is stored. Nothing happens when push is off here.
 */
export async function syncPushTopics(topic: string): Promise<void> {
  if (!pushSupported() || Notification.permission !== 'granted' || !localStorage.getItem(KEYS.fcmToken)) return;
  const token = await getPushToken();
  if (!token) return;
  for (const old of storedTopics()) if (old !== topic) await topicCall('/api/v1/topics/unsubscribe', token, old);
  store(token.endpoint, (await topicCall('/api/v1/topics/subscribe', token, topic)) ? [topic] : []);
}

/**
 * Turn push on in this browser (from the switch: a user action): ask permission, get the token,
 * subscribe it to `topic`. 'denied' when the user refused (logged, spec §8); 'error' when the
 * token or the subscribe call failed.
 */
export async function enablePush(topic: string): Promise<'on' | 'denied' | 'error' | 'unsupported'> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    console.warn('Push permission denied');
    return 'denied';
  }
  const token = await getPushToken();
  if (!token) return 'error';
  // eslint-disable-next-line no-restricted-syntax -- called from the switch's mutationFn (usePushSwitch)
  await unwrap(masar.POST('/api/v1/topics/subscribe', { body: { token, topic } }));
  store(token.endpoint, [topic]);
  return 'on';
}

/** Turn push off in this browser: unsubscribe every stored topic, then the browser's subscription. */
export async function disablePush(topic: string): Promise<void> {
  const reg = pushSupported() ? await navigator.serviceWorker.getRegistration(SW_URL) : undefined;
  const sub = await reg?.pushManager.getSubscription();
  const json = sub?.toJSON();
  if (json?.endpoint && json.keys?.p256dh && json.keys.auth) {
    const token = { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } };
    for (const t of new Set([...storedTopics(), topic])) await topicCall('/api/v1/topics/unsubscribe', token, t);
  }
  await sub?.unsubscribe().catch((err: unknown) => console.warn('push unsubscribe failed', err));
  store(null, []);
}

/** Before logout: this browser stops receiving the account's pushes (the server forgets it; failures logged). */
export async function unsubscribeBeforeSignOut(): Promise<void> {
  if (!pushSupported() || !localStorage.getItem(KEYS.fcmToken)) return;
  const reg = await navigator.serviceWorker.getRegistration(SW_URL);
  const json = (await reg?.pushManager.getSubscription())?.toJSON();
  if (!json?.endpoint || !json.keys?.p256dh || !json.keys.auth) return;
  const token = { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } };
  for (const t of storedTopics()) await topicCall('/api/v1/topics/unsubscribe', token, t);
}
