import { Alert, Anchor, Badge, Button, Card, Center, Container, Group, SegmentedControl, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Offer } from '@masar/shared';
import { masar, unwrap } from '../../../lib/api';
import { asLang, formatMoney } from '../../../components/format';
import { Lane } from '../../../components/Lane';
import { StatusBadge } from '../../../components/LoadStatusBadge';
import { DateText } from '../../../components/Money';
import { isMyTurn, OfferActions, type OfferSide } from '../components/OfferActions';
import { rolePaths, useRoleBase } from '../../../components/useViewer';
import { isolate } from '../../../components/bidi';
import { Slot } from '../../../components/slots';
import { AccountRecordSummary } from '../../../components/AccountRecord';
import { Loading } from '../../../components/Loading';

type Box = 'received' | 'sent';

function OfferRow({ offer, side, href }: { offer: Offer; side: OfferSide; href: string }) {
  const { t, i18n } = useTranslation('offers');
  const lang = asLang(i18n.language);
  const mine = isMyTurn(offer, side);
  return (
    <Card withBorder padding="sm" data-testid={`offer-row-${offer.loadReferenceId}`}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 260px' }}>
          <Group gap="xs">
            <Anchor component={Link} to={href} ff="monospace" size="sm">
              {offer.loadReferenceId}
            </Anchor>
            <StatusBadge status={offer.status} kind="offer" />
            {offer.status === 'pending' && (
              <Badge size="sm" variant={mine ? 'filled' : 'outline'} color={mine ? 'yellow' : 'gray'} data-testid="offer-turn">
                {mine ? t('turn.yours') : t('turn.theirs')}
              </Badge>
            )}
            {side === 'shipper' && <Slot name="RelationMenu" userId={offer.carrierId} companyName={offer.carrierCompany} />}
          </Group>
          <Lane lane={offer.lane} size="sm" />
          {side === 'shipper' && offer.carrierRecord && <AccountRecordSummary record={offer.carrierRecord} />}

          <Text size="xs" c="dimmed">
            {side === 'shipper' ? t('from', { company: isolate(offer.carrierCompany) }) : t('to', { company: isolate(offer.shipperCompany) })} ·{' '}
            <DateText value={offer.updatedAt} />
          </Text>
        </Stack>
        <Stack gap={0} align="flex-end">
          <Text fw={700} size="lg">
            {formatMoney(offer.priceSar, lang)}
          </Text>
          <Text size="xs" c="dimmed">
            {t('original', { price: formatMoney(offer.originalPriceSar, lang) })}
          </Text>
        </Stack>
      </Group>
      {offer.status === 'pending' && (
        <Group mt="xs">
          <OfferActions offer={offer} side={side} />
        </Group>
      )}
    </Card>
  );
}

/** /{role}/offers — offers received on my loads and bids I sent, with the same answer actions as the load page. */
export default function OffersPage() {
  const { t } = useTranslation('offers');
  const base = useRoleBase();
  const paths = rolePaths(base);
  const [params, setParams] = useSearchParams();
  const fallback: Box = base === '/carriers' ? 'sent' : 'received';
  const box: Box = base === '/carriers' ? 'sent' : params.get('box') === 'sent' ? 'sent' : params.get('box') === 'received' ? 'received' : fallback;
  // "your turn": only the open offers waiting for my answer (server-side, ?turn=mine)
  const yourTurn = params.get('turn') === 'mine';
  const q = useQuery({
    queryKey: ['offers', 'box', box, yourTurn],
    queryFn: () =>
      unwrap(masar.GET('/api/v1/offers', { params: { query: { box, limit: 100, ...(yourTurn ? { turn: 'mine' as const } : {}) } } })).then((d) => d.items),
  });
  const setParam = (k: string, v: string | null) => {
    const next = new URLSearchParams(params);
    if (v === null) next.delete(k);
    else next.set(k, v);
    setParams(next, { replace: true });
  };
  const side: OfferSide = box === 'received' ? 'shipper' : 'carrier';

  return (
    <Container size="lg" py="md">
      <Title order={2} mb="md">
        {t('title')}
      </Title>
      <Group justify="space-between" align="flex-end" mb="md" gap="xs">
        <Tabs value={box} onChange={(v) => setParam('box', v)}>
          <Tabs.List>
            {base !== '/carriers' && (
              <Tabs.Tab value="received" data-testid="offers-tab-received">
                {t('tab.received')}
              </Tabs.Tab>
            )}
            <Tabs.Tab value="sent" data-testid="offers-tab-sent">
              {t('tab.sent')}
            </Tabs.Tab>
          </Tabs.List>
        </Tabs>
        <SegmentedControl
          size="xs"
          aria-label={t('filter.label')}
          value={yourTurn ? 'mine' : 'all'}
          onChange={(v) => setParam('turn', v === 'mine' ? 'mine' : null)}
          data={[
            { value: 'all', label: t('filter.all') },
            { value: 'mine', label: t('filter.yourTurn') },
          ]}
          data-testid="offers-turn-filter"
        />
      </Group>
      {q.isLoading && (
        <Center h={200}>
          <Loading />
        </Center>
      )}
      {q.isError && <Alert color="masarRed">{q.error.message}</Alert>}
      {q.data?.length === 0 && (
        // an empty box says what to do next: shippers post a load to receive offers, bidders find one
        <Stack align="center" py="xl" gap="xs" data-testid="offers-empty">
          <Text c="dimmed">{yourTurn ? t('empty.yourTurn') : t(`empty.${box}`)}</Text>
          {box === 'received' && paths.canPost ? (
            <Button variant="light" component={Link} to={paths.postLoad}>
              {t('emptyAction.postLoad')}
            </Button>
          ) : (
            <Button variant="light" component={Link} to={paths.search}>
              {t('emptyAction.findLoads')}
            </Button>
          )}
        </Stack>
      )}
      <Stack gap="xs">
        {q.data?.map((o) => (
          <OfferRow key={o.id} offer={o} side={side} href={paths.load(o.loadId)} />
        ))}
      </Stack>
    </Container>
  );
}
