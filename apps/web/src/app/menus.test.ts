import { describe, expect, it } from 'vitest';
import { matchPath } from 'react-router';
import en from '../i18n/locales/en/menu.json';
import { bannerKind } from './layout/StatusBanner';
import { guard } from './guard';
import { BOTTOM_BAR, FOOTER_LINKS, MENUS, POST_ACTION, USER_MENU } from './menus';
import { routes } from './routes';

const routed = (path: string) => routes.some((r) => matchPath({ path: r.path, end: true }, path));
const session = (t: 1 | 2 | 3) => ({ isSignedIn: true, accountType: t });

describe('menus (spec §2)', () => {
  for (const t of [1, 2, 3] as const) {
    const prefix = { 1: '/shippers', 2: '/carriers', 3: '/brokers' }[t];
    const all = [...MENUS[t], ...BOTTOM_BAR[t], ...USER_MENU(prefix), ...(POST_ACTION[t] ? [POST_ACTION[t]] : [])];
    it(`type ${t}: every item has a route, a label and passes the guard`, () => {
      for (const i of all) {
        expect(routed(i.to), `${i.to} has a route`).toBe(true);
        expect(en, `label ${i.key}`).toHaveProperty(i.key);
        expect(guard(i.to, '', session(t), 'user'), `${i.to} allowed for type ${t}`).toBeNull();
      }
    });
  }

  it('has the spec items per role', () => {
    const keys = (t: 1 | 2 | 3) => MENUS[t].map((i) => i.key);
    expect(keys(1)).toEqual([
      'dashboard',
      'myShipments',
      'truckInOut',
      'searchTrucks',
      'searchShipments',
      'tendering',
      'marketRates',
      'rateForecast',
      'rateChangeAlerts',
      'fleet',
      'vendors',
      'bayan',
    ]);
    expect(keys(3)).toEqual(expect.arrayContaining([...keys(1), 'postTrucks', 'shipmentInOut', 'trackVehicle']));
    expect(keys(3)).toHaveLength(keys(1).length + 3);
    expect(keys(2)).toEqual(
      expect.arrayContaining([
        'dashboard',
        'myShipments',
        'truckInOut',
        'searchTrucks',
        'searchShipments',
        'tendering',
        'postTrucks',
        'shipmentInOut',
        'trackVehicle',
        'marketRates',
        'rateForecast',
        'rateChangeAlerts',
      ]),
    );
    // carrier truck screens link to broker-prefixed paths; my shipments and search have their own
    const carrier = Object.fromEntries(MENUS[2].map((i) => [i.key, i.to]));
    expect(carrier).toMatchObject({
      truckInOut: '/brokers/truck-in-truck-out',
      searchTrucks: '/brokers/search-trucks',
      myShipments: '/carriers/my-shipments',
      searchShipments: '/carriers/load-search',
      rateForecast: '/carriers/rate-forecast',
      rateChangeAlerts: '/carriers/rate-change-alerts',
    });
    expect(BOTTOM_BAR[1].map((i) => i.key)).toEqual(['myLoads', 'postLoad', 'trustedDrivers', 'rateForecast', 'dashboard']);
    expect(POST_ACTION[3]?.to).toBe('/brokers/post-load');
  });

  it('opens a working screen, not a "coming soon" page, from the first item of every menu and bottom bar', () => {
    const soon = (to: string) => routes.find((r) => matchPath(r.path, to))?.props?.titleKey !== undefined;
    for (const t of [1, 2, 3] as const) {
      expect(soon(MENUS[t][0].to), `menu ${t}: ${MENUS[t][0].to}`).toBe(false);
      expect(soon(BOTTOM_BAR[t][0].to), `bottom bar ${t}: ${BOTTOM_BAR[t][0].to}`).toBe(false);
    }
    // the dashboard is the first item of every menu (spec §2) and a working screen (issue 20)
    for (const t of [1, 2, 3] as const) expect(MENUS[t][0].key).toBe('dashboard');
    for (const p of ['/shippers', '/carriers', '/brokers']) expect(soon(`${p}/dashboard`), p).toBe(false);
  });

  it('footer links open public pages for visitors', () => {
    for (const l of [...FOOTER_LINKS.solutions, ...FOOTER_LINKS.company]) {
      expect(routed(l.to), l.to).toBe(true);
      expect(guard(l.to, '', { isSignedIn: false, accountType: null }, 'public')).toBeNull();
    }
  });
});

describe('status banner (spec §2)', () => {
  it('shows while pending and not first-approved, or rejected', () => {
    expect(bannerKind({ status: 1, isFirstTimeApproved: false })).toBe('pending');
    expect(bannerKind({ status: 1, isFirstTimeApproved: true })).toBeNull();
    expect(bannerKind({ status: 5, isFirstTimeApproved: true })).toBe('rejected');
    expect(bannerKind({ status: 2, isFirstTimeApproved: true })).toBeNull();
    expect(bannerKind(undefined)).toBeNull();
  });
});
