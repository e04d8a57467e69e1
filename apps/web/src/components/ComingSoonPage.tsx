import { Anchor, Badge, Container, List, Stack, Text, Title } from '@mantine/core';
import { IconTruckDelivery } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_TYPE } from '@masar/shared';
import { rolePaths, useViewer } from './useViewer';

/** Screens that exist today, by role prefix ("/shippers" …), as [label key, path]. */
type Links = (base: string) => [label: string, to: string][];

const BY_TYPE: Record<number, string> = { [ACCOUNT_TYPE.shipper]: '/shippers', [ACCOUNT_TYPE.carrier]: '/carriers', [ACCOUNT_TYPE.broker]: '/brokers' };

const myLoads: Links = (b) => [[b === '/carriers' ? 'menu:myShipments' : 'menu:myLoads', rolePaths(b).myLoads]];
const search: Links = (b) => [['menu:searchShipments', rolePaths(b).search]];
const post: Links = (b) => (rolePaths(b).canPost ? [['menu:postLoad', rolePaths(b).postLoad]] : []);
const at =
  (key: string, path: string): Links =>
  (b) => [[`menu:${key}`, `${b}/${path}`]];
const offers = at('offers', 'offers');
const fleet = at('fleet', 'fleet-management');
const track = at('trackVehicle', 'godsview');
const join =
  (...ls: Links[]): Links =>
  (b) =>
    ls.flatMap((l) => l(b));

/** What exists meanwhile, for a signed-in user, per coming screen (spec §2 menus). */
const SIGNED_IN: Record<string, Links> = {
  dashboard: join(myLoads, offers, track),
  truckInOut: join(fleet, track, myLoads),
  searchTrucks: join(search, fleet, at('trustedDrivers', 'trusted-drivers')),
  tendering: join(post, at('vendors', 'contact'), myLoads),
  postTrucks: join(fleet, search, offers),
  shipmentInOut: join(myLoads, at('bayan', 'bayan'), track),
  rateForecast: join(search, post, myLoads),
};
/** … and for a visitor (the public section pages). */
const PUBLIC: [label: string, to: string][] = [
  ['soon:link.signUp', '/signup'],
  ['soon:link.pricing', '/pricing'],
  ['soon:link.home', '/'],
  ['soon:link.faq', '/faq'],
];

/**
 * A screen that arrives in a later issue (routes.tsx `soon(...)`): its name, what it will do
 * (spec §2, namespace 'soon' loaded with the page) and links to the screens that exist now.
 * titleKey: "ns:key"; its last segment names the page ("menu:dashboard" → dashboard).
 */
export function ComingSoonPage({ titleKey }: { titleKey?: string }) {
  const { t } = useTranslation(['soon', 'menu']);
  const viewer = useViewer();
  const page = titleKey?.split(/[:.]/).pop() ?? '';
  const base = viewer.isSignedIn && viewer.accountType ? BY_TYPE[viewer.accountType] : undefined;
  const links = base && SIGNED_IN[page] ? SIGNED_IN[page](base) : PUBLIC;
  const description = t(`page.${page}`, { defaultValue: t('fallback') });
  return (
    <Container size="sm" py="xl" data-testid="coming-soon">
      <Stack align="center" gap="sm" py="xl">
        <IconTruckDelivery size={64} stroke={1.2} color="var(--mantine-color-masar-6)" className="masar-mirror-rtl" aria-hidden />
        <Badge variant="light">{t('badge')}</Badge>
        <Title order={1} fz="h2" ta="center">
          {titleKey ? t(titleKey) : t('badge')}
        </Title>
        <Text ta="center" maw={520}>
          {description}
        </Text>
        <Text c="dimmed" size="sm" mt="md">
          {t('meanwhile')}
        </Text>
        <List spacing={6} listStyleType="none" ta="center" data-testid="coming-soon-links">
          {links.map(([label, to]) => (
            <List.Item key={to}>
              <Anchor component={Link} to={to} fw={600}>
                {t(label)}
              </Anchor>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Container>
  );
}
export default ComingSoonPage;
