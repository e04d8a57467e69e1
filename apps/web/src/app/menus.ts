import type { AccountType } from '@masar/shared';

/**
 * Menus per role (spec §2). `key` is a `menu` namespace i18n key; `primary` items show in the
 * desktop header, the rest under "More".
 */
export interface MenuItem {
  key: string;
  to: string;
  primary?: boolean;
}

// The dashboard opens every menu (spec §2; issue 20 made it a working screen).
const shipperLike = (p: '/shippers' | '/brokers'): MenuItem[] => [
  { key: 'dashboard', to: `${p}/dashboard` },
  { key: 'myShipments', to: `${p}/my-loads`, primary: true },
  { key: 'truckInOut', to: `${p}/truck-in-truck-out` },
  { key: 'searchTrucks', to: `${p}/search-trucks`, primary: true },
  { key: 'searchShipments', to: p === '/shippers' ? '/shippers/search-shipments' : '/brokers/load-search', primary: true },
  { key: 'tendering', to: `${p}/tendering-shipment` },
  { key: 'marketRates', to: `${p}/market-rates` },
  { key: 'rateForecast', to: `${p}/rate-forecast` },
  { key: 'rateChangeAlerts', to: `${p}/rate-change-alerts` },
  { key: 'fleet', to: `${p}/fleet-management` },
  { key: 'vendors', to: `${p}/contact` },
  { key: 'bayan', to: `${p}/bayan` },
];

export const MENUS: Record<AccountType, MenuItem[]> = {
  1: shipperLike('/shippers'),
  3: [
    ...shipperLike('/brokers'),
    { key: 'postTrucks', to: '/brokers/post-trucks' },
    { key: 'shipmentInOut', to: '/brokers/shipment-in-shipment-out' },
    { key: 'trackVehicle', to: '/brokers/godsview' },
  ],
  2: [
    { key: 'dashboard', to: '/carriers/dashboard' },
    { key: 'myShipments', to: '/carriers/my-shipments', primary: true },
    // spec §2: the carrier's truck screens link to broker-prefixed paths
    { key: 'truckInOut', to: '/brokers/truck-in-truck-out' },
    { key: 'searchTrucks', to: '/brokers/search-trucks' },
    { key: 'searchShipments', to: '/carriers/load-search', primary: true },
    { key: 'tendering', to: '/carriers/tendering-shipment' },
    { key: 'marketRates', to: '/carriers/market-rates' },
    { key: 'rateForecast', to: '/carriers/rate-forecast' },
    { key: 'rateChangeAlerts', to: '/carriers/rate-change-alerts' },
    { key: 'postTrucks', to: '/carriers/post-trucks', primary: true },
    { key: 'shipmentInOut', to: '/carriers/shipment-in-shipment-out' },
    { key: 'trackVehicle', to: '/carriers/godsview' },
    { key: 'fleet', to: '/carriers/fleet-management' },
    { key: 'vendors', to: '/carriers/contact' },
    { key: 'bayan', to: '/carriers/bayan' },
  ],
};

/** The header action: shippers and brokers post shipments (spec §2 "Post Shipment" action). */
export const POST_ACTION: Partial<Record<AccountType, MenuItem>> = {
  1: { key: 'postShipment', to: '/shippers/post-load' },
  3: { key: 'postShipment', to: '/brokers/post-load' },
};

/** User menu: offers and account (logout is an action, not a link). */
export const USER_MENU = (p: string): MenuItem[] => [
  { key: 'offers', to: `${p}/offers` },
  { key: 'account', to: `${p}/account` },
  { key: 'billing', to: `${p}/billing-and-invoice` },
  { key: 'integrations', to: `${p}/account/integrations` },
  { key: 'notifications', to: `${p}/notifications` },
];

type BarItem = MenuItem & { icon: 'dashboard' | 'loads' | 'post' | 'drivers' | 'forecast' | 'search' | 'truck' | 'offers' };
const shipperLikeBar = (p: '/shippers' | '/brokers'): BarItem[] => [
  { key: 'myLoads', to: `${p}/my-loads`, icon: 'loads' },
  { key: 'postLoad', to: `${p}/post-load`, icon: 'post' },
  { key: 'trustedDrivers', to: `${p}/trusted-drivers`, icon: 'drivers' },
  { key: 'rateForecast', to: `${p}/rate-forecast`, icon: 'forecast' },
  { key: 'dashboard', to: `${p}/dashboard`, icon: 'dashboard' },
];

/** Mobile bottom bar (spec §2: my loads, post load, trusted drivers, rate forecast, dashboard). */
export const BOTTOM_BAR: Record<AccountType, BarItem[]> = {
  1: shipperLikeBar('/shippers'),
  3: shipperLikeBar('/brokers'),
  2: [
    { key: 'loadSearch', to: '/carriers/load-search', icon: 'search' },
    { key: 'myShipments', to: '/carriers/my-shipments', icon: 'loads' },
    { key: 'offers', to: '/carriers/offers', icon: 'offers' },
    { key: 'postTrucks', to: '/carriers/post-trucks', icon: 'truck' },
    { key: 'dashboard', to: '/carriers/dashboard', icon: 'dashboard' },
  ],
};

/** Footer "solutions" and company links for visitors (public pages). */
export const FOOTER_LINKS = {
  solutions: [
    { key: 'forShippers', to: '/shippers' },
    { key: 'forCarriers', to: '/carriers' },
    { key: 'forBrokers', to: '/brokers' },
    { key: 'rateForecast', to: '/rate-forecast' },
    { key: 'pricing', to: '/pricing' },
  ],
  company: [
    { key: 'aboutUs', to: '/about-us' },
    { key: 'faq', to: '/faq' },
    { key: 'help', to: '/help' },
    { key: 'contact', to: '/contact' },
    { key: 'terms', to: '/terms-and-conditions' },
    { key: 'privacy', to: '/privacy-policy' },
  ],
};
