import { loadNamespaces, type PageNamespace } from '../i18n';
import { createElement, lazy, type ComponentType } from 'react';
import { matchPath } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { prefetchLoadSearch } from '../features/loads/prefetch';
import { guard, type GuardSession } from './guard';

/**
 * The route table (spec §2). `access`: 'public' (anyone), 'guest' (signed-out only: login,
 * signup), 'user' (signed in). `role` pins a route to an account type prefix.
 * Features never import each other: this table composes them.
 */
export interface RouteDef {
  path: string;
  element: ComponentType<Record<string, unknown>>;
  access: 'public' | 'guest' | 'user';
  props?: Record<string, unknown>;
}

type Loader = () => Promise<unknown>;
/** A page module once its page namespaces (i18n PAGE_NAMESPACES) are loaded too. */
const withNamespaces = <M,>(mod: Promise<M>, nss: readonly PageNamespace[]) => Promise.all([mod, loadNamespaces(nss)]).then(([m]) => m);
/** A page module whose page renders the panels other features lend it (components/slots, app/slots). */
const withSlots = <P extends object>(mod: Promise<{ default: ComponentType<P> }>) =>
  Promise.all([mod, import('./slots')]).then(([m, s]) => ({ default: s.withSlots(m.default) }));
const loaders = new Map<unknown, Loader>();
/**
 * A lazy page whose chunk can also be requested ahead of rendering (see preloadRoute). Once its
 * module has arrived the page renders directly, without suspending: the first render of a
 * prerendered page (main.tsx waits for its chunk) then replaces the server's HTML with the same
 * page in one commit, never with the loading fallback in between.
 */
function page<P extends object>(loader: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  const load = () =>
    (pending ??= loader().then(
      (m) => ((loaded = m.default), m),
      (e: unknown) => {
        pending = undefined; // a failed download may be retried
        throw e;
      },
    ));
  const Lazy = lazy(load);
  const Page = (props: P) => createElement((loaded ?? Lazy) as ComponentType<P>, props);
  loaders.set(Page, load);
  return Page;
}

const Home = page(() => import('../features/home/pages/HomePage'));
const Login = page(() => import('../features/auth/pages/LoginPage'));
const Signup = page(() => import('../features/auth/pages/SignupPage'));
const Forgot = page(() => import('../features/auth/pages/ForgotPasswordPage'));
const Reset = page(() => import('../features/auth/pages/ResetPasswordPage'));
const Team = page(() => withNamespaces(import('../features/team/pages/TeamPage'), ['team']));
const Account = page(() => withNamespaces(withSlots(import('../features/account/pages/AccountPage')), ['profile', 'team', 'relations', 'fleet']));
const ProfileApproval = page(() => withNamespaces(import('../features/account/pages/ProfileApprovalPage'), ['verification']));
const Integrations = page(() => withNamespaces(import('../features/integrations/pages/IntegrationsPage'), ['integrations']));
const MyLoads = page(() => withNamespaces(import('../features/loads/pages/MyLoadsPage'), ['shipments']));
const PostLoad = page(() => withNamespaces(import('../features/loads/pages/PostLoadPage'), ['shipments', 'profile', 'rates']));
const LoadSearch = page(() => withNamespaces(withSlots(import('../features/loads/pages/LoadSearchPage')), ['shipments', 'searches', 'rates']));
const LoadDetails = page(() =>
  // integrations: the timeline's event labels (integrations:event.*)
  withNamespaces(withSlots(import('../features/loads/pages/LoadDetailsPage')), ['assignment', 'bayan', 'trips', 'shipments', 'fleet', 'integrations', 'rates']),
);
const Offers = page(() => withSlots(import('../features/offers/pages/OffersPage')));
const Fleet = page(() => withNamespaces(import('../features/fleet/pages/FleetPage'), ['fleet', 'csv']));
const TrustedDrivers = page(() => withNamespaces(import('../features/fleet/pages/TrustedDriversPage'), ['fleet']));
const Vendors = page(() => withNamespaces(import('../features/vendors/pages/VendorsPage'), ['vendors', 'fleet', 'csv']));
const VendorInvite = page(() => withNamespaces(import('../features/vendors/pages/VendorInvitePage'), ['vendors', 'fleet']));
const CsvLogs = page(() => withNamespaces(import('../features/csv/pages/CsvLogsPage'), ['csv', 'fleet']));
const Pricing = page(() => withNamespaces(import('../features/billing/pages/PricingPage'), ['billing']));
const Checkout = page(() => withNamespaces(import('../features/billing/pages/CheckoutPage'), ['billing']));
const PaymentConfirm = page(() => withNamespaces(import('../features/billing/pages/PaymentConfirmPage'), ['billing']));
const Billing = page(() => withNamespaces(import('../features/billing/pages/BillingPage'), ['billing']));
const Bayan = page(() => withNamespaces(import('../features/bayan/pages/BayanPage'), ['bayan']));
const Faq = page(() => withNamespaces(import('../features/public/pages/FaqPage'), ['public']));
const InfoPage = page(() => withNamespaces(import('../features/public/pages/InfoPage'), ['public']));
const DriverTrip = page(() => withNamespaces(import('../features/trips/pages/DriverTripPage'), ['trips']));
const Godsview = page(() => withNamespaces(import('../features/trips/pages/GodsviewPage'), ['trips']));
const LoadTracking = page(() => withNamespaces(import('../features/trips/pages/LoadTrackingPage'), ['trips']));
const Help = page(() => withNamespaces(import('../features/public/pages/HelpPage'), ['public']));
const Contact = page(() => withNamespaces(import('../features/public/pages/ContactPage'), ['public']));
const ThankYou = page(() => withNamespaces(import('../features/public/pages/ThankYouPage'), ['public']));
const City = page(() => withNamespaces(import('../features/public/pages/CityPage'), ['public']));
const Relations = page(() => withNamespaces(withSlots(import('../features/relations/pages/RelationsPage')), ['relations']));
const MarketRates = page(() => withNamespaces(import('../features/rates/pages/MarketRatesPage'), ['rates']));
const PostTrucks = page(() => withNamespaces(import('../features/trucks/pages/PostTrucksPage'), ['trucks']));
const SearchTrucks = page(() => withNamespaces(withSlots(import('../features/trucks/pages/SearchTrucksPage')), ['trucks', 'tenders', 'searches']));
const Tendering = page(() => withNamespaces(import('../features/tenders/pages/TenderingPage'), ['tenders']));
const InOut = page(() => withNamespaces(import('../features/trucks/pages/InOutPage'), ['trucks']));
const RateForecast = page(() => withNamespaces(import('../features/forecast/pages/RateForecastPage'), ['forecast']));
const RateAlerts = page(() => withNamespaces(import('../features/forecast/pages/RateAlertsPage'), ['alerts']));
const ComingSoon = page(() => withNamespaces(import('../components/ComingSoonPage'), ['soon']));
const Notifications = page(() => withNamespaces(import('../features/notifications/pages/NotificationsPage'), ['notifications']));
// the dashboards (issue 20): the charts library is in this chunk only
const Dashboards = page(() => withNamespaces(import('../features/dashboards/pages/DashboardPage'), ['dashboard']));
export const NotFound = page(() => import('../components/NotFoundPage'));

type El = RouteDef['element'];
const r = (path: string, element: unknown, access: RouteDef['access'] = 'user', props?: Record<string, unknown>): RouteDef => ({
  path,
  element: element as El,
  access,
  props,
});
const soon = (path: string, titleKey: string, access: RouteDef['access'] = 'user') => r(path, ComingSoon, access, { titleKey });

/** The signed-in screens every account type has, below its prefix (spec §2). */
const ROLE_COMMON: RouteDef[] = [
  r('/loads/:id', LoadDetails),
  r('/loads/:id/track', LoadTracking),
  r('/offers', Offers),
  r('/account', Account),
  r('/account/addresses', Account),
  r('/account/team', Team),
  r('/account/integrations', Integrations),
  r('/favourites', Relations, 'user', { kind: 'favourite' }),
  r('/blocked', Relations, 'user', { kind: 'blocked' }),
  r('/setting', Relations),
  r('/billing-and-invoice', Billing),
  r('/saved-cards', Billing),
  r('/profile-approval', ProfileApproval),
  r('/checkout', Checkout),
  // back from 3-D Secure: the server asks the payment gateway how it ended
  r('/checkout/confirm', PaymentConfirm),
  r('/pricing', Pricing),
  r('/dashboard', Dashboards),
  r('/fleet-management', Fleet),
  r('/csv-logs', CsvLogs),
  r('/contact', Vendors),
  r('/bayan', Bayan),
  r('/tendering-shipment', Tendering),
  r('/trusted-drivers', TrustedDrivers),
  r('/godsview', Godsview),
  r('/market-rates', MarketRates),
  r('/rate-forecast', RateForecast),
  r('/rate-change-alerts', RateAlerts),
  // notifications of the signed-in user (issue 21)
  r('/notifications', Notifications),
];
/** A role's routes: its own screens, then ROLE_COMMON, all below `prefix` (Shipper 1, Carrier 2, Broker 3). */
const roleRoutes = (prefix: '/shippers' | '/carriers' | '/brokers', own: RouteDef[]): RouteDef[] =>
  [...own, ...ROLE_COMMON].map((d) => ({ ...d, path: prefix + d.path }));

export const routes: RouteDef[] = [
  r('/', Home, 'public'),
  r('/login', Login, 'guest'),
  r('/signup', Signup, 'guest'),
  r('/forgot-password', Forgot, 'guest'),
  r('/reset-password', Reset, 'public'),
  // Public vendor sign-up request from a shared vendor link: /vendor?invite=<token>.
  r('/vendor', VendorInvite, 'public'),
  // The driver's job link (no account; phone + licence number): /driver?token=<signed link>.
  r('/driver', DriverTrip, 'public'),
  // Public pages linked from the footer (spec §2 shared/section paths); screens come later.
  soon('/shippers', 'common:footer.forShippers', 'public'),
  soon('/carriers', 'common:footer.forCarriers', 'public'),
  soon('/brokers', 'common:footer.forBrokers', 'public'),
  r('/rate-forecast', RateForecast, 'public'),
  r('/pricing', Pricing, 'public'),
  r('/about-us', InfoPage, 'public', { page: 'about' }),
  r('/faq', Faq, 'public'),
  r('/help', Help, 'public'),
  r('/contact', Contact, 'public'),
  r('/thank-you', ThankYou, 'public'),
  // city landing pages: /city/riyadh … (CITY_PAGES in @masar/shared; others are not found)
  r('/city/:slug', City, 'public'),
  r('/terms-and-conditions', InfoPage, 'public', { page: 'terms' }),
  r('/privacy-policy', InfoPage, 'public', { page: 'privacy' }),
  ...roleRoutes('/shippers', [
    r('/my-loads', MyLoads),
    r('/post-load', PostLoad),
    r('/truck-in-truck-out', InOut, 'user', { kind: 'trucks' }),
    r('/search-trucks', SearchTrucks),
    r('/search-shipments', LoadSearch),
  ]),
  ...roleRoutes('/carriers', [
    r('/load-search', LoadSearch),
    r('/my-shipments', MyLoads),
    r('/post-trucks', PostTrucks),
    r('/shipment-in-shipment-out', InOut, 'user', { kind: 'loads' }),
  ]),
  ...roleRoutes('/brokers', [
    r('/my-loads', MyLoads),
    r('/post-load', PostLoad),
    r('/load-search', LoadSearch),
    r('/truck-in-truck-out', InOut, 'user', { kind: 'trucks' }),
    r('/search-trucks', SearchTrucks),
    r('/post-trucks', PostTrucks),
    r('/shipment-in-shipment-out', InOut, 'user', { kind: 'loads' }),
  ]),
];

/**
 * Request the page chunk of `pathname` now (main.tsx calls it before the strings and the first
 * render are ready), so it downloads in parallel instead of after the first render.
 */
export function preloadRoute(pathname: string): Promise<unknown> {
  const r = routes.find((x) => matchPath(x.path, pathname));
  return loaders.get(r?.element ?? NotFound)?.() ?? Promise.resolve();
}

/**
 * Start the data the page of `pathname` shows first, before it renders (main.tsx, beside
 * preloadRoute): today the board's first search (features/loads/prefetch.ts, in the entry). Only
 * where the route guard (guard.ts, the same rule RouteGuard applies) lets `session` stay, so a
 * reader about to be sent elsewhere costs no search. True when a request was started.
 */
export function prefetchRouteData(pathname: string, search: string, queryClient: QueryClient, session: GuardSession): boolean {
  const r = routes.find((x) => matchPath(x.path, pathname));
  if (r?.element !== LoadSearch || guard(pathname, search, session, r.access) !== null) return false;
  void prefetchLoadSearch(queryClient, search);
  return true;
}
