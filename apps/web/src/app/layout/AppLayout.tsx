import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Box } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MOBILE_BREAKPOINT_PX } from '@masar/shared';
import { loadNamespaces } from '../../i18n';
import { useAfterFirstPaint } from '../../lib/afterPaint';
import { useSession } from '../../lib/session';
import { BottomBar, BOTTOM_BAR_HEIGHT } from './BottomBar';
import { Footer } from './Footer';
import { Header } from './Header';
import { BlockedDialog, NotSignedInDialog } from './SessionDialogs';
import { BANNER_HEIGHT, StatusBanner, bannerKind } from './StatusBanner';
import { useRouteFocus } from './useRouteFocus';

// not useRoleBase (components/useViewer): it pulls @masar/shared into the shell's first download
const ROLE_PREFIX: Record<number, string> = { 1: '/shippers', 2: '/carriers', 3: '/brokers' };

// spec §4 approval dialog: its code and strings come only for the one page load that shows it
// the real-time connection and its mqtt client load after sign-in only, in their own chunks (issue 21)
const RealtimeBridge = lazy(() => import('./RealtimeBridge').then((m) => ({ default: m.RealtimeBridge })));
/** The incoming-call dialog and the call window (issue 21 "Calls"). */
const CallLayer = lazy(() => Promise.all([import('../../features/calls/components/CallLayer'), loadNamespaces(['calls'])]).then(([m]) => m));
const ApprovedDialog = lazy(() => Promise.all([import('./ApprovedDialog'), loadNamespaces(['verification'])]).then(([m]) => m));

/**
 * true from the first profile answer that reports the approval (`isFirstTimeLoginAfterApproved`,
 * which the server reports exactly once, spec §4) until the page is left: a later re-read of the
 * profile (the real-time resync after the socket's first connect, issue 48) answers false and
 * must not take the dialog away before the user has read it.
 */
export function useApprovedLatch(reported: boolean | undefined): boolean {
  const [seen, setSeen] = useState(false);
  if (reported && !seen) setSeen(true);
  return seen || !!reported;
}

/** Spec §2: the layout switches at 768 px (mobile at or below). */
export const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX}px)`;

/** The app shell: header + role menu, page, footer, mobile bottom bar, status banner, dialogs. */
export function AppLayout({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const mobile = useMediaQuery(MOBILE_QUERY, window.matchMedia?.(MOBILE_QUERY).matches ?? false) ?? false;
  const [drawer, setDrawer] = useState(false);
  const [bannerHeight, setBannerHeight] = useState(BANNER_HEIGHT);
  const session = useSession();
  const approved = useApprovedLatch(session.profile?.isFirstTimeLoginAfterApproved);
  const { pathname } = useLocation();
  const banner = bannerKind(session.profile);
  // the call layer comes after the first paint (lib/afterPaint); the real-time connection at once (issue 48)
  const painted = useAfterFirstPaint();
  const roleBase = session.accountType ? ROLE_PREFIX[session.accountType] : null;
  const bar = mobile && session.accountType ? session.accountType : null;
  const barHeight = bar ? BOTTOM_BAR_HEIGHT : 0;

  useEffect(() => {
    setDrawer(false);
    // newer Chromium returns a Promise from scrollTo: never hand it to React as a cleanup
    void window.scrollTo?.(0, 0);
  }, [pathname]);
  useRouteFocus(pathname, i18n.language, t('appName'));
  useEffect(() => {
    if (session.profileError) notifications.show({ id: 'profile-error', color: 'red', message: t('errors.profile') });
  }, [session.profileError, t]);

  // the driver's job page is a focused tool: no marketing header, footer or menus (issue 23)
  if (pathname === '/driver')
    return (
      <Box component="main" id="main" tabIndex={-1} style={{ minHeight: '100dvh', outline: 'none' }}>
        {children}
      </Box>
    );
  return (
    <Box
      style={{
        minHeight: '100dvh',
        display: 'flex',
        flexDirection: 'column',
        paddingBottom: barHeight + (banner ? bannerHeight : 0),
        // what is fixed at the bottom (bottom bar, status banner): a page's own sticky bar sits above it
        ['--masar-bottom-offset' as string]: `${barHeight + (banner ? bannerHeight : 0)}px`,
      }}
    >
      {/* the first stop of Tab: past the header and menu to the page (issue 23) */}
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        {t('skipToContent')}
      </a>
      <Header mobile={mobile} drawerOpen={drawer} onDrawer={setDrawer} />
      <Box component="main" id="main" tabIndex={-1} style={{ flex: 1, outline: 'none' }}>
        {children}
      </Box>
      <Footer />
      {bar && <BottomBar accountType={bar} />}
      {banner && (
        <StatusBanner kind={banner} bottom={barHeight} onHeight={setBannerHeight} verifyPath={roleBase ? `${roleBase}/profile-approval` : undefined} />
      )}
      {approved && (
        <Suspense fallback={null}>
          <ApprovedDialog pricingPath={roleBase && `${roleBase}/pricing`} />
        </Suspense>
      )}
      <BlockedDialog />
      <NotSignedInDialog />
      {/* not after the first paint (issue 48): its chunk and mqtt's download while the page renders */}
      {session.isSignedIn && (
        <Suspense fallback={null}>
          <RealtimeBridge />
        </Suspense>
      )}
      {session.isSignedIn && painted && (
        <Suspense fallback={null}>
          <CallLayer />
        </Suspense>
      )}
    </Box>
  );
}
