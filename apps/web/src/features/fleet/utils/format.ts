import { useLocation } from 'react-router';
import type { Driver, Trailer, Vehicle } from '../api/fleet';
import { digits, digitSystem } from '../../../lib/digits';
import { numberFormat } from '../../../lib/intl';
import { formatDate } from '../../../components/format';

export type Lang = 'en' | 'ar';
export const asLang = (l: string | undefined): Lang => (l?.startsWith('ar') ? 'ar' : 'en');

/** Role prefix of the current screen ("/carriers", …) or "". */
export function useRoleBase() {
  const { pathname } = useLocation();
  const m = /^\/(shippers|carriers|brokers)(\/|$)/.exec(pathname);
  return m ? `/${m[1]}` : '';
}

export const driverName = (d: Pick<Driver, 'firstName' | 'lastName'> | null | undefined) => (d ? `${d.firstName} ${d.lastName}`.trim() : '');

/** "Toyota Hilux ٢٠٢٣": make and model as typed, the year in the reader's digit system (issue 23). */
export const vehicleTitle = (v: Pick<Vehicle, 'make' | 'model' | 'year'>) => [v.make, v.model, v.year ? digits(v.year) : null].filter(Boolean).join(' ');

export const trailerTitle = (t: Pick<Trailer, 'trailerNumber'>) => t.trailerNumber;

export function formatNumber(n: number | null | undefined, lang: Lang) {
  if (n === null || n === undefined || Number.isNaN(n)) return '';
  return numberFormat(lang === 'ar' ? 'ar-SA' : 'en-SA', { maximumFractionDigits: 2, numberingSystem: digitSystem(lang) }).format(n);
}

/** A day (YYYY-MM-DD, or the day of an ISO instant in Riyadh) as the rest of the app writes dates (components/format.ts). */
export function formatDay(iso: string | null | undefined, lang: Lang) {
  if (!iso) return '';
  return formatDate(iso, lang, false) || iso;
}
