import type { GeoError } from '@masar/shared';
import type { Where } from './api/trips';

/** GeolocationPositionError codes → the spec's five location messages (trips:geo.*). */
const CODE: Record<number, GeoError> = { 1: 'denied', 2: 'unavailable', 3: 'timeout' };

/**
 * The browser's position now, or why there is none (denied, unavailable, timeout, unsupported,
 * unknown). Never rejects: a step is recorded without a position when the browser gives none.
 */
export function currentPosition(timeoutMs = 10_000): Promise<Where> {
  if (!('geolocation' in navigator) || !navigator.geolocation) return Promise.resolve({ geoError: 'unsupported' });
  return new Promise((resolve) => {
    try {
      navigator.geolocation.getCurrentPosition(
        (p) => resolve({ lat: p.coords.latitude, lng: p.coords.longitude, accuracyM: Math.min(100_000, Math.round(p.coords.accuracy ?? 0)) }),
        (e) => resolve({ geoError: CODE[e.code] ?? 'unknown' }),
        { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: 0 },
      );
    } catch {
      resolve({ geoError: 'unknown' });
    }
  });
}
