import { lazy, Suspense, useState } from 'react';
import { Anchor, Badge, Button, Card, Container, Group, Modal, Select, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconFileInvoice } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { PAYMENT_PURPOSE, type Invoice, type SubscriptionStatus } from '@masar/shared';
import { NumberInput } from '../../../components/NumberInput';
import { asLang, formatDate, formatMoney } from '../../../components/format';
import { useRoleBase, useViewer } from '../../../components/useViewer';
import { masar, unwrap, idempotent, type BodyOf } from '../../../lib/api';
import { notifySuccess, showApiError } from '../../../lib/form';
import { PROFILE_QUERY_KEY } from '../../../lib/session';
import { BILLING, newPaymentKey, useCards, useInvoices, useSubscription, useWallet } from '../api';
import { SavedCards } from '../components/SavedCards';
import SavedCardsPage from './SavedCardsPage';

const InvoiceView = lazy(() => import('../components/InvoiceView'));

const STATUS_COLOR: Record<SubscriptionStatus, string> = { trialing: 'blue', active: 'masar', past_due: 'orange', cancelled: 'gray', expired: 'gray' };

/** Asks before the plan is cancelled (at the end of its period). */
function CancelPlanDialog({ opened, onClose, onConfirm, busy }: { opened: boolean; onClose: () => void; onConfirm: () => void; busy: boolean }) {
  const { t } = useTranslation('billing');
  return (
    <Modal opened={opened} onClose={onClose} title={t('billing.cancelTitle')}>
      <Text mb="md">{t('billing.cancelText')}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('billing.keep')}
        </Button>
        <Button color="red" onClick={onConfirm} loading={busy} data-testid="cancel-confirm">
          {t('billing.cancel')}
        </Button>
      </Group>
    </Modal>
  );
}

function PlanCard() {
  const { t, i18n } = useTranslation('billing');
  const { accountType } = useViewer();
  const base = useRoleBase(accountType);
  const lang = asLang(i18n.language);
  const qc = useQueryClient();
  const { data: sub, isLoading } = useSubscription();
  const [asking, setAsking] = useState(false);
  const cancelPlan = useMutation({
    mutationFn: () => unwrap(masar.PATCH('/api/v1/cancelSubscription')),
    // awaited by the mutation: the dialog's button stays busy until the subscription and profile are fresh
    onSuccess: async () => {
      notifySuccess(t('billing.cancelText'));
      await Promise.all([qc.invalidateQueries({ queryKey: BILLING.subscription }), qc.invalidateQueries({ queryKey: PROFILE_QUERY_KEY })]);
    },
  });
  const cancel = async () => {
    try {
      await cancelPlan.mutateAsync();
    } catch (e) {
      showApiError(e);
    } finally {
      setAsking(false);
    }
  };
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="plan-card">
      <Title order={2} fz="h3" mb="sm">
        {t('billing.plan')}
      </Title>
      {isLoading ? (
        <Skeleton h={80} />
      ) : !sub ? (
        <Stack gap="sm" align="flex-start">
          <Text>{t('billing.noPlan')}</Text>
          <Button component={Link} to={`${base}/pricing`}>
            {t('billing.seePlans')}
          </Button>
        </Stack>
      ) : (
        <Stack gap="xs">
          <Group gap="sm">
            <Text fw={700} fz="lg" data-testid="plan-name">
              {sub.planName}
            </Text>
            <Badge color={STATUS_COLOR[sub.status]}>{t(`billing.status.${sub.status}`)}</Badge>
          </Group>
          {sub.priceSar && <Text>{formatMoney(sub.priceSar, lang)}</Text>}
          {sub.currentPeriodEnd && (
            <Text fz="sm">
              {sub.renewsAt ? t('billing.renewsAt') : t('billing.endsAt')}: {formatDate(sub.currentPeriodEnd, lang, false)}
            </Text>
          )}
          {(sub.trial || sub.planCode === 'demo' || !sub.active || sub.cancelAtPeriodEnd) && (
            // a trial, the demo accounts' plan or an ending plan may be replaced by a paid plan
            <Group mt="xs">
              <Button component={Link} to={`${base}/pricing`} variant="light" data-testid="change-plan">
                {t('billing.seePlans')}
              </Button>
            </Group>
          )}
          {sub.active && !sub.cancelAtPeriodEnd && sub.planCode !== 'demo' /* the demo accounts' plan has no end */ && (
            <Group mt="xs">
              <Button variant="default" color="red" onClick={() => setAsking(true)} data-testid="cancel-plan">
                {t('billing.cancel')}
              </Button>
            </Group>
          )}
        </Stack>
      )}
      <CancelPlanDialog opened={asking} onClose={() => setAsking(false)} onConfirm={() => void cancel()} busy={cancelPlan.isPending} />
    </Card>
  );
}

function CardsCard() {
  const { t } = useTranslation('billing');
  const { accountType } = useViewer();
  const base = useRoleBase(accountType);
  return (
    <Card withBorder radius="lg" padding="lg">
      <SavedCards
        heading={
          <Title order={2} fz="h3">
            {t('billing.cards')}
          </Title>
        }
      />
      <Anchor component={Link} to={`${base}/saved-cards`} fz="sm" mt="sm" display="inline-block" data-testid="saved-cards-link">
        {t('savedCards.manage')}
      </Anchor>
    </Card>
  );
}

function WalletCard() {
  const { t, i18n } = useTranslation('billing');
  const lang = asLang(i18n.language);
  const qc = useQueryClient();
  const { data: wallet } = useWallet();
  const { data: cards = [] } = useCards();
  const [amount, setAmount] = useState<number | string>(100);
  const [cardId, setCardId] = useState<string | null>(null);
  const recharge_ = useMutation({
    mutationFn: ({ body, key }: { body: BodyOf<'/api/v1/subscription/createIntent', 'post'>; key: string }) =>
      unwrap(masar.POST('/api/v1/subscription/createIntent', { body, headers: idempotent(key) })),
    // awaited by the mutation: Recharge stays busy until the bank's page opens or the balance is fresh
    onSuccess: async (intent) => {
      if (intent.status === 'requires_action' && intent.actionUrl) {
        window.location.assign(intent.actionUrl);
        return;
      }
      notifySuccess(t('confirm.done'));
      await qc.invalidateQueries({ queryKey: BILLING.wallet });
    },
  });
  const chosen = cardId ?? cards.find((c) => c.isDefault && !c.lastChargeFailedAt)?.id ?? null;
  const recharge = async () => {
    if (!chosen) return;
    try {
      await recharge_.mutateAsync({
        body: { purpose: PAYMENT_PURPOSE.walletRecharge, amountSar: String(amount), cardId: chosen },
        key: newPaymentKey(),
      });
    } catch (e) {
      showApiError(e);
    }
  };
  return (
    <Card withBorder radius="lg" padding="lg">
      <Title order={2} fz="h3" mb="sm">
        {t('billing.wallet')}
      </Title>
      <Text fz="sm" c="dimmed">
        {t('billing.balance')}
      </Text>
      <Text fz={28} fw={800} data-testid="wallet-balance">
        {wallet ? formatMoney(wallet.balanceSar, lang) : '…'}
      </Text>
      <Group align="flex-end" mt="md" gap="xs">
        <NumberInput label={t('billing.rechargeAmount')} value={amount} onChange={setAmount} min={10} max={50000} w={140} />
        <Select
          label={t('billing.rechargeCard')}
          value={chosen}
          onChange={setCardId}
          data={cards.map((c) => ({ value: c.id, label: `${t(`card.brand.${c.brand}`)} •••• ${c.last4}` }))}
          w={200}
        />
        <Button onClick={() => void recharge()} loading={recharge_.isPending} disabled={!chosen}>
          {t('billing.recharge')}
        </Button>
      </Group>
      {wallet && wallet.entries.length > 0 ? (
        <Table.ScrollContainer minWidth={360} mt="md">
          <Table>
            <Table.Tbody>
              {wallet.entries.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>{t(`billing.entry.${e.kind}`)}</Table.Td>
                  <Table.Td>{formatDate(e.createdAt, lang)}</Table.Td>
                  <Table.Td ta="end">{formatMoney(e.amountSar, lang)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text c="dimmed" mt="md">
          {t('billing.noEntries')}
        </Text>
      )}
    </Card>
  );
}

function InvoicesCard() {
  const { t, i18n } = useTranslation('billing');
  const lang = asLang(i18n.language);
  const { data: invoices = [] } = useInvoices();
  const [open, setOpen] = useState<Invoice | null>(null);
  return (
    <Card withBorder radius="lg" padding="lg">
      <Title order={2} fz="h3" mb="sm">
        {t('billing.invoices')}
      </Title>
      {invoices.length === 0 ? (
        <Text c="dimmed">{t('billing.noInvoices')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table verticalSpacing="sm" data-testid="invoices-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('billing.number')}</Table.Th>
                <Table.Th>{t('billing.date')}</Table.Th>
                <Table.Th ta="end">{t('billing.amount')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoices.map((inv) => (
                <Table.Tr key={inv.id}>
                  <Table.Td>
                    <bdi dir="ltr">{inv.number}</bdi>
                  </Table.Td>
                  <Table.Td>{formatDate(inv.issuedAt, lang, false)}</Table.Td>
                  <Table.Td ta="end">{formatMoney(inv.totalSar, lang)}</Table.Td>
                  <Table.Td ta="end">
                    <Button
                      size="xs"
                      variant="light"
                      leftSection={<IconFileInvoice size={14} />}
                      onClick={() => setOpen(inv)}
                      aria-label={t('billing.view', { number: inv.number })}
                    >
                      {t('billing.number')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal opened={!!open} onClose={() => setOpen(null)} title={open ? t('billing.invoiceTitle', { number: open.number }) : ''} size="xl">
        <Suspense fallback={<Skeleton h={300} />}>{open && <InvoiceView invoice={open} />}</Suspense>
      </Modal>
    </Card>
  );
}

/**
 * Billing and invoices (spec §2 /billing-and-invoice): plan, saved cards, wallet, VAT invoices.
 * /<role>/saved-cards is the same lazy route (nothing added to the app shell's route chunks).
 */
export default function BillingPage() {
  const { t } = useTranslation('billing');
  const { pathname } = useLocation();
  if (pathname.endsWith('/saved-cards')) return <SavedCardsPage />;
  return (
    <Container size="lg" py="xl">
      <Title order={1} mb="lg">
        {t('billing.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <PlanCard />
        <CardsCard />
        <WalletCard />
        <InvoicesCard />
      </SimpleGrid>
    </Container>
  );
}
