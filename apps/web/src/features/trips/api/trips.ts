import type { DriverJob, DriverJobs, TripProof, TripSession, TripStep, GeoError } from '@masar/shared';
import { ApiError, masar, unwrap } from '../../../lib/api';

/** Where the driver's trip session lives: this tab only (sessionStorage), tied to its job link. */
const SESSION_KEY = 'masar.tripSession';

export interface StoredTripSession extends TripSession {
  /** The job link token the session was opened from (another link → identify again). */
  link: string;
}

export function readTripSession(link: string): StoredTripSession | null {
  try {
    const s = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null') as StoredTripSession | null;
    if (!s || s.link !== link || Date.parse(s.expiresAt) <= Date.now()) return null;
    return s;
  } catch {
    return null;
  }
}
export function saveTripSession(s: StoredTripSession | null) {
  if (s) sessionStorage.setItem(SESSION_KEY, JSON.stringify(s));
  else sessionStorage.removeItem(SESSION_KEY);
}

const lang = () => (document.documentElement.lang === 'ar' ? 'ar' : 'en');

/** A driver call: no account, the trip token in X-Trip-Token; returns `data` or throws ApiError. */
async function driverCall<T>(method: string, path: string, token: string | null, body?: BodyInit | object, extra: Record<string, string> = {}): Promise<T> {
  const headers: Record<string, string> = { language: lang(), platform: '3', ...extra };
  if (token) headers['x-trip-token'] = token;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, { method, headers, body: payload });
  } catch (e) {
    throw new ApiError(0, 'NETWORK_ERROR', (e as Error).message || 'Network error');
  }
  const json = (await res.json().catch(() => ({}))) as { data?: T; message?: string; code?: string; errors?: { path: string; message: string }[] };
  if (!res.ok) throw new ApiError(res.status, json.code ?? 'SOMETHING_WENT_WRONG', json.message ?? res.statusText, json.errors ?? []);
  return json.data as T;
}

export interface Where {
  lat?: number;
  lng?: number;
  accuracyM?: number;
  geoError?: GeoError;
}

export const tripApi = {
  openSession: (b: { token: string; phone: string; licenceNumber: string }) => driverCall<TripSession>('POST', '/driver/trip/session', null, b),
  jobs: (token: string) => driverCall<DriverJobs>('GET', '/driver/trip', token),
  step: (token: string, loadId: string, step: TripStep, where: Where) =>
    driverCall<DriverJob>('POST', '/driver/trip/steps', token, { loadId, step, ...where }, { 'idempotency-key': crypto.randomUUID() }),
  proof: (token: string, loadId: string, stop: 'pickup' | 'drop', where: Where, file: File) => {
    const form = new FormData();
    // fields before the file: the server reads them from the parts seen before it
    form.append('loadId', loadId);
    form.append('stop', stop);
    if (where.lat !== undefined && where.lng !== undefined) {
      form.append('lat', String(where.lat));
      form.append('lng', String(where.lng));
    } else if (where.geoError) form.append('geoError', where.geoError);
    form.append('file', file);
    return driverCall<TripProof>('POST', '/driver/trip/proofs', token, form, { 'idempotency-key': crypto.randomUUID() });
  },
  position: (token: string, p: { lat: number; lng: number; speed?: number; heading?: number }) =>
    driverCall<unknown>('POST', '/vehicles/track/positions', token, { positions: [{ ...p, at: new Date().toISOString() }] }),
};

/** Signed-in users: tracking, godsview, payment follow-through. */
export const trackingApi = {
  overview: () => unwrap(masar.GET('/api/v1/vehicles/track/overview')),
  load: (id: string) => unwrap(masar.GET('/api/v1/loads/{id}/tracking', { params: { path: { id } } })),
  paymentReceived: (id: string) => unwrap(masar.POST('/api/v1/loads/{id}/payment-received', { params: { path: { id } } })),
  daysToPay: (shipperId: string) => unwrap(masar.GET('/api/v1/shippers/{id}/days-to-pay', { params: { path: { id: shipperId } } })),
};
