import { KEYS } from './storage';

const APP_VERSION = '0.1.0';

function randomId(): string {
  // randomUUID needs a secure context; plain-http deployments fall back to getRandomValues
  if (typeof crypto.randomUUID === 'function' && window.isSecureContext) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** A random id for this browser, persisted so guest sign-ins and logouts name the same device. */
export function deviceId(): string {
  let id = localStorage.getItem(KEYS.deviceId);
  if (!id) {
    id = randomId();
    localStorage.setItem(KEYS.deviceId, id);
  }
  return id;
}

function browserAndOs(ua: string) {
  const browser = /Edg\/([\d.]+)/.exec(ua)
    ? `Edge ${/Edg\/([\d.]+)/.exec(ua)?.[1]}`
    : /Chrom(?:e|ium)\/([\d.]+)/.exec(ua)
      ? `Chrome ${/Chrom(?:e|ium)\/([\d.]+)/.exec(ua)?.[1]}`
      : /Firefox\/([\d.]+)/.exec(ua)
        ? `Firefox ${/Firefox\/([\d.]+)/.exec(ua)?.[1]}`
        : /Version\/([\d.]+).*Safari/.exec(ua)
          ? `Safari ${/Version\/([\d.]+)/.exec(ua)?.[1]}`
          : 'Browser';
  const os = /Windows NT [\d.]+|Android [\d.]+|iPhone OS [\d_]+|Mac OS X [\d_.]+|Linux/.exec(ua)?.[0] ?? 'Unknown';
  return { browser, os };
}

/** Device fields of the guest sign-in and logout bodies (spec §3). deviceType 3 = web. */
export function deviceInfo() {
  const { browser, os } = browserAndOs(navigator.userAgent);
  return {
    deviceId: deviceId(),
    appVersion: APP_VERSION,
    deviceMake: (navigator.vendor || 'web').slice(0, 80),
    deviceModel: browser.slice(0, 80),
    deviceOsVersion: os.replace(/_/g, '.').slice(0, 80),
  };
}

export function guestSignInBody() {
  return { ...deviceInfo(), deviceType: 3, deviceTime: new Date().toISOString() };
}
