import type { GeoError, TripSession } from '@masar/shared';
import { idempotent, masar, noAuth, unwrap, withForm, type BodyOf } from '../../../lib/api';

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

/** Headers of a driver call: no account (noAuth), the trip token in X-Trip-Token. */
const asDriver = (token: string, extra: Record<string, string> = {}) => ({ ...noAuth, 'x-trip-token': token, ...extra });

export interface Where {
  lat?: number;
  lng?: number;
  accuracyM?: number;
  geoError?: GeoError;
}

export const tripApi = {
  // eslint-disable-next-line no-restricted-syntax -- a building block: DriverTripPage calls it from a useMutation mutationFn
  openSession: (body: { token: string; phone: string; licenceNumber: string }) => unwrap(masar.POST('/api/v1/driver/trip/session', { body, headers: noAuth })),
  jobs: (token: string) => unwrap(masar.GET('/api/v1/driver/trip', { headers: asDriver(token) })),
  /** A step; `recordedAt` (the device's time) and `key` (its idempotency key) come from the offline queue when it was queued. */
  step: (
    token: string,
    loadId: string,
    step: BodyOf<'/api/v1/driver/trip/steps', 'post'>['step'],
    where: Where,
    queued?: { recordedAt: string; key: string },
  ) =>
    // eslint-disable-next-line no-restricted-syntax -- a building block: DriverTripPage calls it from a useMutation mutationFn
    unwrap(
      masar.POST('/api/v1/driver/trip/steps', {
        body: { loadId, step, ...where, ...(queued ? { recordedAt: queued.recordedAt } : {}) },
        headers: asDriver(token, idempotent(queued?.key ?? crypto.randomUUID())),
      }),
    ),
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
    // eslint-disable-next-line no-restricted-syntax -- a building block: DriverTripPage calls it from a useMutation mutationFn
    return unwrap(masar.POST('/api/v1/driver/trip/proofs', { headers: asDriver(token, idempotent(crypto.randomUUID())), middleware: [withForm(form)] }));
  },
  position: (token: string, p: { lat: number; lng: number; speed?: number; heading?: number }) =>
    // eslint-disable-next-line no-restricted-syntax -- the background position beacon (useTripTracking), not a user's write: no busy state, failures ignored
    unwrap(masar.POST('/api/v1/vehicles/track/positions', { body: { positions: [{ ...p, at: new Date().toISOString() }] }, headers: asDriver(token) })),
  /** Positions fixed offline (the offline queue, issue 49): each at its fix time, the batch under one idempotency key. */
  positions: (token: string, points: { lat: number; lng: number; at: string }[], key: string) =>
    // eslint-disable-next-line no-restricted-syntax -- the offline queue's sync (useOfflineQueue), not a user's write
    unwrap(masar.POST('/api/v1/vehicles/track/positions', { body: { positions: points }, headers: asDriver(token, idempotent(key)) })),
};

/** Signed-in users: tracking, godsview, payment follow-through. */
export const trackingApi = {
  overview: () => unwrap(masar.GET('/api/v1/vehicles/track/overview')),
  load: (id: string) => unwrap(masar.GET('/api/v1/loads/{id}/tracking', { params: { path: { id } } })),
  // eslint-disable-next-line no-restricted-syntax -- a building block: PaymentReceivedButton calls it from a useMutation mutationFn
  paymentReceived: (id: string) => unwrap(masar.POST('/api/v1/loads/{id}/payment-received', { params: { path: { id } } })),
  daysToPay: (shipperId: string) => unwrap(masar.GET('/api/v1/shippers/{id}/days-to-pay', { params: { path: { id: shipperId } } })),
};
