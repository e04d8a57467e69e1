import { ActionIcon, Box, Burger, Button, Divider, Group, Menu, NavLink as MantineNavLink, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconLogout, IconPlus, IconUserCircle } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../components/Logo';
import { useAfterFirstPaint } from '../../lib/afterPaint';
import { landingOf, rolePath, useSession } from '../../lib/session';
import { MENUS, POST_ACTION, USER_MENU, type MenuItem } from '../menus';
import { PostShipmentModal } from './PostShipmentModal';
import { PreferenceControls } from './PreferenceControls';
import { LazyDrawer } from '../../components/LazyOverlay';
import { SlotsProvider } from '../../components/slots';
import { loadNamespaces } from '../../i18n';

/** The notifications bell (issue 21), with its strings: loaded once a user is signed in. */
const NotificationBell = lazy(() =>
  Promise.all([import('../../features/notifications/components/NotificationBell'), loadNamespaces(['notifications'])]).then(([m]) => m),
);

/** The chat button and its panel (issue 21), with their strings: loaded once a user is signed in. */
const ChatHeaderButton = lazy(() => Promise.all([import('../../features/chat/components/ChatHeaderButton'), loadNamespaces(['chat'])]).then(([m]) => m));
/** The slots the chat panel shows (it opens from the header, outside the pages' slots): the call buttons of a thread. */
const chatSlots = {
  CallButtons: lazy(() => Promise.all([import('../../features/calls'), loadNamespaces(['calls'])]).then(([m]) => ({ default: m.CallButtons }))),
};

function isActive(pathname: string, to: string) {
  return pathname === to || pathname.startsWith(`${to}/`);
}

export const HEADER_HEIGHT = 64;

/** Top bar: logo, role menu (spec §2), post action, user menu; a burger drawer on mobile. */
export function Header({ mobile, drawerOpen, onDrawer }: { mobile: boolean; drawerOpen: boolean; onDrawer: (open: boolean) => void }) {
  const { t } = useTranslation(['menu', 'common']);
  const session = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [postModal, setPostModal] = useState(false);
  // the chat and notification buttons (their chunks and unread counts) come after the first paint
  const painted = useAfterFirstPaint();
  const type = session.accountType;
  const items: MenuItem[] = type ? MENUS[type] : [];
  // Between the mobile breakpoint and a wide screen the primary links do not fit (Arabic labels
  // are long too): everything goes under one "Menu" dropdown there.
  const wide = useMediaQuery('(min-width: 1200px)', window.matchMedia?.('(min-width: 1200px)').matches ?? true) ?? true;
  const primary = wide ? items.filter((i) => i.primary) : [];
  const more = wide ? items.filter((i) => !i.primary) : items;
  const post = type ? POST_ACTION[type] : undefined;
  const userItems = type ? USER_MENU(rolePath(type, '').replace(/\/$/, '')) : [];
  const p = session.profile;
  // a team member acts for the owner's account (issue 8): say whose
  const name = p ? (p.team ? t('menu:actingFor', { company: p.companyName }) : `${p.firstName} ${p.lastName}`.trim()) : t('menu:account');

  return (
    <Box
      component="header"
      px="md"
      style={{
        position: 'sticky',
        top: 0,
        zIndex: 150,
        height: HEADER_HEIGHT,
        background: 'var(--mantine-color-body)',
        borderBlockEnd: '1px solid var(--mantine-color-default-border)',
      }}
    >
      <Group h="100%" justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="xs" wrap="nowrap">
          {/* the header is also prerendered at desktop width (src/prerender.tsx): what differs on a
              phone is switched by CSS there too, so the first paint fits a 390 px screen */}
          <Burger hiddenFrom={mobile ? undefined : 'sm'} opened={drawerOpen} onClick={() => onDrawer(!drawerOpen)} size="sm" aria-label={t('menu:openMenu')} />
          <UnstyledButton component={Link} to={landingOf(type)}>
            <Logo />
          </UnstyledButton>
        </Group>

        {!mobile && type && (
          <Group component="nav" visibleFrom="sm" gap={2} wrap="nowrap" aria-label={t('menu:mainNav')} style={{ flex: 1, minWidth: 0 }}>
            {primary.map((i) => (
              <Button
                key={i.to}
                component={Link}
                to={i.to}
                visibleFrom="lg"
                variant={isActive(pathname, i.to) ? 'light' : 'subtle'}
                color={isActive(pathname, i.to) ? undefined : 'gray'}
                size="compact-md"
              >
                {t(`menu:${i.key}`)}
              </Button>
            ))}
            {wide ? (
              <>
                {/* the wide layout is also what the prerendered HTML holds: below 1200 px CSS
                    shows the one-dropdown layout until the script has measured the screen */}
                {more.length > 0 && <NavDropdown label={t('menu:more')} items={more} pathname={pathname} visibleFrom="lg" />}
                <NavDropdown label={t('menu:menu')} items={items} pathname={pathname} hiddenFrom="lg" />
              </>
            ) : (
              <NavDropdown label={t('menu:menu')} items={items} pathname={pathname} />
            )}
          </Group>
        )}

        <Group gap="xs" wrap="nowrap">
          {post &&
            !mobile &&
            (type === 3 ? (
              <Button visibleFrom="sm" leftSection={<IconPlus size={16} />} onClick={() => setPostModal(true)}>
                {t(`menu:${post.key}`)}
              </Button>
            ) : (
              <Button component={Link} to={post.to} visibleFrom="sm" leftSection={<IconPlus size={16} />}>
                {t(`menu:${post.key}`)}
              </Button>
            ))}
          {session.isSignedIn && type && painted && (
            <Suspense fallback={null}>
              <SlotsProvider value={chatSlots}>
                <ChatHeaderButton />
              </SlotsProvider>
            </Suspense>
          )}
          {session.isSignedIn && type && painted && (
            <Suspense fallback={null}>
              <NotificationBell base={rolePath(type, '').replace(/\/$/, '')} />
            </Suspense>
          )}
          {session.isSignedIn ? (
            !mobile && (
              <Box visibleFrom="sm">
                <Menu position="bottom-end" shadow="md" width={220}>
                  <Menu.Target>
                    {wide ? (
                      <Button variant="default" leftSection={<IconUserCircle size={18} />} rightSection={<IconChevronDown size={14} />} maw={220}>
                        <Text truncate="end" fz="sm">
                          {name}
                        </Text>
                      </Button>
                    ) : (
                      <ActionIcon variant="default" size="lg" aria-label={name}>
                        <IconUserCircle size={20} />
                      </ActionIcon>
                    )}
                  </Menu.Target>
                  <Menu.Dropdown>
                    {userItems.map((i) => (
                      <Menu.Item key={i.to} component={Link} to={i.to}>
                        {t(`menu:${i.key}`)}
                      </Menu.Item>
                    ))}
                    <Menu.Divider />
                    <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void session.signOut()}>
                      {t('menu:logout')}
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              </Box>
            )
          ) : (
            <>
              <Button component={Link} to="/login" variant="subtle" size={mobile ? 'compact-sm' : 'sm'}>
                {t('menu:signIn')}
              </Button>
              {!mobile && (
                <Button component={Link} to="/signup" visibleFrom="sm">
                  {t('menu:signUp')}
                </Button>
              )}
            </>
          )}
        </Group>
      </Group>

      <LazyDrawer
        opened={drawerOpen}
        onClose={() => onDrawer(false)}
        // Mantine mirrors 'left' to the right edge in RTL: the drawer opens on the burger's side
        position="left"
        size="xs"
        title={<Logo />}
        scrollAreaComponent={ScrollArea.Autosize}
        zIndex={300}
      >
        <Stack gap={4} component="nav" aria-label={t('menu:mainNav')}>
          {post && (
            <Button
              leftSection={<IconPlus size={16} />}
              mb="xs"
              onClick={() => {
                onDrawer(false);
                if (type === 3) setPostModal(true);
                else void navigate(post.to);
              }}
            >
              {t(`menu:${post.key}`)}
            </Button>
          )}
          {[...items, ...userItems].map((i) => (
            <MantineNavLink
              key={i.to}
              component={Link}
              to={i.to}
              label={t(`menu:${i.key}`)}
              active={isActive(pathname, i.to)}
              onClick={() => onDrawer(false)}
            />
          ))}
          {session.isSignedIn ? (
            <MantineNavLink
              label={t('menu:logout')}
              c="red"
              leftSection={<IconLogout size={16} />}
              onClick={() => {
                onDrawer(false);
                void session.signOut();
              }}
            />
          ) : (
            <>
              <MantineNavLink component={Link} to="/login" label={t('menu:signIn')} onClick={() => onDrawer(false)} />
              <MantineNavLink component={Link} to="/signup" label={t('menu:signUp')} onClick={() => onDrawer(false)} />
            </>
          )}
          <Divider my="sm" />
          <PreferenceControls />
        </Stack>
      </LazyDrawer>
      {type === 3 && <PostShipmentModal opened={postModal} onClose={() => setPostModal(false)} prefix="/brokers" />}
    </Box>
  );
}

/** A header dropdown of menu links ("More" beside the primary links, or "Menu" with all of them). */
function NavDropdown({ label, items, pathname, ...shown }: { label: string; items: MenuItem[]; pathname: string; visibleFrom?: 'lg'; hiddenFrom?: 'lg' }) {
  const { t } = useTranslation('menu');
  return (
    <Box {...shown}>
      <Menu position="bottom-start" shadow="md" width={240}>
        <Menu.Target>
          <Button
            variant={items.some((i) => isActive(pathname, i.to)) ? 'light' : 'subtle'}
            color="gray"
            size="compact-md"
            rightSection={<IconChevronDown size={14} />}
          >
            {label}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {items.map((i) => (
            <Menu.Item key={i.to} component={Link} to={i.to}>
              {t(`menu:${i.key}`)}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Box>
  );
}
