import { Alert, Badge, Button, Center, Container, Group, Menu, Stack, Tabs, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconPlus } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MY_LOADS_TABS, type Load, type MyLoadsTab, type MyOfferState } from '@masar/shared';
import { asLang, formatCount, formatMoney, type Lang } from '../../../components/format';
import { Slot } from '../../../components/slots';
import { rolePaths, useRoleBase, useViewer } from '../../../components/useViewer';
import { useMyLoads } from '../api/loads';
import { BookmarkButton, LoadOptionsMenu } from '../components/LoadOptionsMenu';
import { DisplayToggle, type ListingDisplay } from '../components/DisplayToggle';
import { LoadsTable } from '../components/LoadsTable';
import { LoadList } from '../components/LoadList';
import { LoadsPager } from '../components/LoadsPager';
import { Loading } from '../../../components/Loading';

const PAGE_SIZE = 12;
/** Spec §2: phones at or below 768 px get cards instead of the table. */
const PHONE = '(max-width: 768px)';

/**
 * The tabs of each role, the ones with daily work first (issue 23). Carriers never post loads, so
 * posted/unposted/expired are not theirs, and they open on their active jobs. The first
 * PRIMARY_TABS fit one row at 1280 px; the rest are in the "More" menu (a selected one joins the row).
 */
const ROLE_TABS: Record<'owner' | 'carrier', readonly MyLoadsTab[]> = {
  owner: [
    'posted',
    'offers',
    'active',
    'finished',
    'bookmarks',
    'unposted',
    'unassigned',
    'assigned',
    'pending_bayan',
    'completed',
    'cancelled',
    'expired',
    'customers',
  ],
  carrier: ['active', 'offers', 'customers', 'finished', 'bookmarks', 'unassigned', 'assigned', 'pending_bayan', 'completed', 'cancelled'],
};
const PRIMARY_TABS = 5;

/** Where the open offers on one load stand for me: my price or the lowest, and whose turn it is. */
function OfferStateBadges({ state, lang }: { state: MyOfferState; lang: Lang }) {
  const { t } = useTranslation('loads');
  const price = formatMoney(state.priceSar, lang);
  const mine = state.yourTurn > 0;
  return (
    <Group gap={4} wrap="nowrap" data-testid="offer-state">
      <Badge size="sm" variant="light" color="gray">
        {state.side === 'carrier' ? t('myLoads.offerState.yourOffer', { price }) : t('myLoads.offerState.lowest', { price })}
      </Badge>
      {state.side === 'shipper' && state.pending > 1 && (
        <Badge size="sm" variant="outline" color="gray">
          {t('myLoads.offerState.offers', { count: state.pending })}
        </Badge>
      )}
      <Badge size="sm" variant={mine ? 'filled' : 'outline'} color={mine ? 'yellow' : 'gray'} data-testid="offer-state-turn">
        {state.side === 'shipper' && state.pending > 1 && mine
          ? t('myLoads.offerState.yourTurnCount', { count: state.yourTurn })
          : mine
            ? t('myLoads.offerState.yourTurn')
            : t('myLoads.offerState.theirTurn')}
      </Badge>
    </Group>
  );
}

/** /shippers/my-loads, /brokers/my-loads, /carriers/my-shipments: tabs with counts, owner actions, grid/line, pages. */
export default function MyLoadsPage() {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const [params, setParams] = useSearchParams();
  const base = useRoleBase();
  const paths = rolePaths(base);
  const viewer = useViewer();
  const tabParam = params.get('tab');
  const roleTabs = ROLE_TABS[base === '/carriers' ? 'carrier' : 'owner'];
  // a link to any tab still opens it (e.g. an old /carriers/my-shipments?tab=posted)
  const tab: MyLoadsTab = (MY_LOADS_TABS as readonly string[]).includes(tabParam ?? '') ? (tabParam as MyLoadsTab) : roleTabs[0];
  const primary = roleTabs.slice(0, PRIMARY_TABS);
  const shown = primary.includes(tab) ? primary : [...primary, tab];
  const overflow = roleTabs.slice(PRIMARY_TABS).filter((k) => k !== tab);
  const page = Math.max(1, Number(params.get('page')) || 1);
  // past the numbered pages: the keyset cursor (the API's nextCursor)
  const after = params.get('after') || null;
  const displayParam = params.get('display');
  // the results table is the default (issue 23: a working list, as the board); grid and line stay a click away
  const display: ListingDisplay = displayParam === 'line' || displayParam === 'grid' ? displayParam : 'table';
  // the results table (issue 23) becomes cards on phones, as on the board
  const phone = useMediaQuery(PHONE, window.matchMedia?.(PHONE).matches ?? false) ?? false;
  const q = useMyLoads(tab, PAGE_SIZE, (page - 1) * PAGE_SIZE, after);

  const set = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch))
      if (v === null) next.delete(k);
      else next.set(k, v);
    setParams(next, { replace: true });
  };

  // More Options shows exactly the server's load.options for me; the star bookmarks
  const offerStates = q.data?.offerStates;
  // chat about the load with the other party: the owner with its booked carrier; a carrier with
  // the shipper of a load it booked or bid on (the server still checks parties, blocks, settings)
  const chatWith = (l: Load): 'shipper' | 'carrier' | null => {
    if (l.isMine ?? viewer.profile?.id === l.shipperId) return l.carrierId ? 'carrier' : null;
    return (viewer.profile && l.carrierId === viewer.profile.id) || offerStates?.[l.id] ? 'shipper' : null;
  };
  const actionsOf = (l: Load) => (
    <Group gap={2} wrap="nowrap">
      {offerStates?.[l.id] && <OfferStateBadges state={offerStates[l.id]} lang={lang} />}
      {chatWith(l) === 'carrier' && <Slot name="MessageButton" loadId={l.id} counterpartId={l.carrierId ?? undefined} to="carrier" compact />}
      {chatWith(l) === 'shipper' && <Slot name="MessageButton" loadId={l.id} to="shipper" company={l.shipperCompany} compact />}
      <BookmarkButton load={l} />
      <LoadOptionsMenu load={l} />
    </Group>
  );

  const counts = q.data?.counts;
  const total = q.data?.total ?? 0;
  const countBadge = (k: MyLoadsTab) =>
    counts ? (
      <Badge size="sm" variant="light" color={k === tab ? 'masar' : 'gray'}>
        {formatCount(counts[k], q.data?.countsCapped[k], lang)}
      </Badge>
    ) : undefined;
  return (
    <Container size="xl" py="md">
      <Group justify="space-between" mb="md">
        <Title order={2}>{base === '/carriers' ? t('myLoads.titleCarrier') : t('myLoads.title')}</Title>
        <Group>
          <DisplayToggle<ListingDisplay> withTable value={display} onChange={(v) => set({ display: v === 'table' ? null : v })} />
          {paths.canPost && (
            <Button component={Link} to={paths.postLoad} leftSection={<IconPlus size={16} />} data-testid="new-load">
              {t('myLoads.postLoad')}
            </Button>
          )}
        </Group>
      </Group>
      <Group gap="xs" wrap="nowrap" align="flex-end" mb="md">
        <Tabs value={tab} onChange={(v) => set({ tab: v ?? roleTabs[0], page: null, after: null })} style={{ flex: 1, minInlineSize: 0 }}>
          <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }}>
            {shown.map((k) => (
              <Tabs.Tab key={k} value={k} data-testid={`tab-${k}`} rightSection={countBadge(k)} style={{ flexShrink: 0 }}>
                {t(`myLoads.tab.${k}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
        {overflow.length > 0 && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button
                variant="subtle"
                color="gray"
                size="sm"
                rightSection={<IconChevronDown size={14} />}
                aria-label={t('myLoads.moreTabsLabel')}
                data-testid="tabs-more"
              >
                {t('myLoads.moreTabs')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {overflow.map((k) => (
                <Menu.Item key={k} data-testid={`tab-more-${k}`} rightSection={countBadge(k)} onClick={() => set({ tab: k, page: null, after: null })}>
                  {t(`myLoads.tab.${k}`)}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      {q.isLoading && (
        <Center h={200}>
          <Loading />
        </Center>
      )}
      {q.isError && <Alert color="masarRed">{q.error.message}</Alert>}
      {q.data && q.data.items.length === 0 && (
        <Stack align="center" py="xl" gap="xs">
          <Text c="dimmed">{t(`myLoads.empty.${tab}`)}</Text>
          {paths.canPost ? (
            <Button variant="light" component={Link} to={paths.postLoad}>
              {t('myLoads.postLoad')}
            </Button>
          ) : (
            <Button variant="light" component={Link} to={paths.search}>
              {t('myLoads.findLoads')}
            </Button>
          )}
        </Stack>
      )}
      {q.data &&
        q.data.items.length > 0 &&
        (display === 'table' ? (
          <LoadsTable loads={q.data.items} hrefOf={(l) => paths.load(l.id)} showStatus density="comfortable" cards={phone} actionsOf={actionsOf} />
        ) : (
          <LoadList loads={q.data.items} mode={display} hrefOf={(l) => paths.load(l.id)} showStatus actionsOf={actionsOf} />
        ))}
      {q.data && (
        <LoadsPager
          total={total}
          totalCapped={q.data.totalCapped}
          pageSize={PAGE_SIZE}
          page={page}
          after={after}
          nextCursor={q.data.nextCursor}
          onPage={(p) => set({ page: p > 1 ? String(p) : null, after: null })}
          onAfter={(c) => set({ page: null, after: c })}
        />
      )}
    </Container>
  );
}
