import { describe, expect, it } from 'vitest';
import { guard, landingOf } from './guard';

const guest = { isSignedIn: false, accountType: null };
const shipper = { isSignedIn: true, accountType: 1 };
const carrier = { isSignedIn: true, accountType: 2 };
const broker = { isSignedIn: true, accountType: 3 };

describe('route guard (spec §2)', () => {
  it('lands each type on its landing page', () => {
    expect(landingOf(1)).toBe('/shippers/my-loads');
    expect(landingOf(2)).toBe('/carriers/load-search');
    expect(landingOf(3)).toBe('/brokers/my-loads');
    expect(landingOf(null)).toBe('/');
  });

  it('sends signed-in users away from paths outside the allowed prefixes', () => {
    for (const p of ['/', '/login', '/signup', '/forgot-password', '/pricing', '/faq', '/nope', '/shippers', '/carriers']) {
      expect(guard(p, '', shipper, 'public')).toEqual({ to: '/shippers/my-loads' });
      expect(guard(p, '', carrier, 'public')).toEqual({ to: '/carriers/load-search' });
      expect(guard(p, '', broker, 'guest')).toEqual({ to: '/brokers/my-loads' });
    }
  });

  it('lets signed-in users open the allowed prefixes', () => {
    for (const p of ['/shippers/my-loads', '/carriers/load-search', '/brokers/truck-in-truck-out', '/vendor', '/vendor/x', '/driver/abc', '/reset-password']) {
      expect(guard(p, '', carrier, 'user')).toBeNull();
    }
    // carriers use broker-prefixed truck screens (spec §2 menus)
    expect(guard('/brokers/search-trucks', '', carrier, 'user')).toBeNull();
  });

  it('makes dashboard and account follow the type', () => {
    expect(guard('/carriers/account', '', shipper, 'user')).toEqual({ to: '/shippers/account' });
    expect(guard('/shippers/dashboard', '', broker, 'user')).toEqual({ to: '/brokers/dashboard' });
    expect(guard('/shippers/account', '', shipper, 'user')).toBeNull();
  });

  it('keeps plans, checkout and billing under the own type of the user; public pricing is for guests', () => {
    expect(guard('/carriers/pricing', '', shipper, 'user')).toEqual({ to: '/shippers/pricing' });
    expect(guard('/shippers/billing-and-invoice', '', carrier, 'user')).toEqual({ to: '/carriers/billing-and-invoice' });
    expect(guard('/brokers/checkout', '?plan=tms-monthly', broker, 'user')).toBeNull();
    expect(guard('/pricing', '', guest, 'public')).toBeNull();
    expect(guard('/pricing', '', carrier, 'public')).toEqual({ to: '/carriers/load-search' });
  });

  it('sends guests home from protected pages', () => {
    expect(guard('/shippers/my-loads', '', guest, 'user')).toEqual({ to: '/' });
    expect(guard('/carriers/unknown', '', guest, undefined)).toEqual({ to: '/' });
    expect(guard('/brokers/account', '?x=1', guest, 'user')).toEqual({ to: '/' });
  });

  it('alerts guests arriving from an e-mail link under a role path', () => {
    expect(guard('/carriers/load-search', '?trigger=email', guest, 'user')).toEqual({ to: '/', alert: 'notSignedIn' });
    expect(guard('/shippers/my-loads', 'trigger=email&a=b', guest, 'user')).toEqual({ to: '/', alert: 'notSignedIn' });
    expect(guard('/carriers/load-search', '?trigger=sms', guest, 'user')).toEqual({ to: '/' });
  });

  it('lets guests open public and guest pages', () => {
    for (const [p, a] of [
      ['/', 'public'],
      ['/login', 'guest'],
      ['/signup', 'guest'],
      ['/reset-password', 'public'],
      ['/nope', undefined],
    ] as const) {
      expect(guard(p, '?trigger=email', guest, a)).toBeNull();
    }
  });

  it('sends a signed-in user without a known type home', () => {
    expect(guard('/shippers/my-loads', '', { isSignedIn: true, accountType: null }, 'user')).toEqual({ to: '/' });
    expect(guard('/', '', { isSignedIn: true, accountType: null }, 'public')).toBeNull();
  });
});
