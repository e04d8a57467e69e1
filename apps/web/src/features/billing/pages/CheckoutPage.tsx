import { useMemo, useState } from 'react';
import { Alert, Anchor, Button, Card, Container, Divider, Group, Modal, Radio, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTicket } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { fromHalalas, PAYMENT_PURPOSE, toHalalas, VAT_RATE, vatHalalas, type PromoQuote } from '@masar/shared';
import { asLang, formatMoney, formatPercent } from '../../../components/format';
import { useRoleBase, useViewer } from '../../../components/useViewer';
import { ApiError, masar, unwrap, idempotent, type BodyOf } from '../../../lib/api';
import { notifySuccess, showApiError } from '../../../lib/form';
import { PROFILE_QUERY_KEY } from '../../../lib/session';
import { BILLING, isPlanCode, newPaymentKey, useCards, usePlans, useWallet } from '../api';
import { CardForm, CardLabel } from '../components/CardForm';

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text fw={strong ? 700 : 400}>{label}</Text>
      <Text fw={strong ? 700 : 500}>{value}</Text>
    </Group>
  );
}

/**
 * Checkout (spec §2 "checkout with saved cards, add card, promo code"): the plan with VAT, a
 * saved card or the wallet, an optional promo code; Pay sends one Idempotency-Key per attempt
 * (a double click or a retry never charges twice). 3-D Secure goes to the bank's page and back
 * to /checkout/confirm.
 */
export default function CheckoutPage() {
  const { t, i18n } = useTranslation('billing');
  const lang = asLang(i18n.language);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const { accountType } = useViewer();
  const base = useRoleBase(accountType);
  const { data: plans, isLoading } = usePlans(i18n.language);
  const { data: cards = [] } = useCards();
  const { data: wallet } = useWallet();
  const plan = plans?.find((p) => p.code === params.get('plan'));
  const [method, setMethod] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [promo, setPromo] = useState('');
  const [quote, setQuote] = useState<PromoQuote | null>(null);
  const [promoError, setPromoError] = useState<string | null>(null);
  const checkPromo = useMutation({ mutationFn: (body: BodyOf<'/api/v1/promo/check', 'post'>) => unwrap(masar.POST('/api/v1/promo/check', { body })) });
  const createIntent = useMutation({
    mutationFn: ({ body, key }: { body: BodyOf<'/api/v1/subscription/createIntent', 'post'>; key: string }) =>
      unwrap(masar.POST('/api/v1/subscription/createIntent', { body, headers: idempotent(key) })),
    // awaited by the mutation: Pay stays busy until the bank's page opens or the plan and profile are fresh
    onSuccess: async (intent) => {
      if (intent.status === 'requires_action' && intent.actionUrl) {
        const url = new URL(intent.actionUrl, window.location.origin);
        if (url.origin === window.location.origin) void navigate(`${url.pathname}${url.search}`);
        else window.location.assign(intent.actionUrl);
        return;
      }
      notifySuccess(t('confirm.done'));
      await Promise.all([qc.invalidateQueries({ queryKey: ['billing'] }), qc.invalidateQueries({ queryKey: PROFILE_QUERY_KEY })]);
      void navigate(`${base}/billing-and-invoice`);
    },
  });
  // one key per attempt: kept until the body changes, so a retry of the same payment reuses it
  const [attempt, setAttempt] = useState(() => ({ key: newPaymentKey(), body: '' }));

  // the renewal card is preselected, never a card the bank just declined (issue 22)
  const chosen = method ?? cards.find((c) => c.isDefault && !c.lastChargeFailedAt)?.id ?? null;
  const totals = useMemo(() => {
    if (quote) return quote;
    if (!plan) return null;
    const h = toHalalas(plan.priceSar);
    return { priceSar: plan.priceSar, discountSar: '0.00', amountSar: plan.priceSar, vatSar: fromHalalas(vatHalalas(h)), totalSar: plan.totalSar };
  }, [plan, quote]);

  if (isLoading) return <Skeleton h={400} m="xl" radius="lg" />;
  if (!plan || !totals) {
    return (
      <Container size="sm" py="xl">
        <Alert color="yellow" title={t('checkout.notFound')}>
          <Anchor component={Link} to={`${base}/pricing`}>
            {t('checkout.backToPricing')}
          </Anchor>
        </Alert>
      </Container>
    );
  }

  const applyPromo = async () => {
    setPromoError(null);
    const planCode = plan.code;
    if (!isPlanCode(planCode)) return;
    try {
      const q = await checkPromo.mutateAsync({ code: promo, planCode });
      setQuote(q);
      notifySuccess(t('checkout.applied'));
    } catch (e) {
      setQuote(null);
      setPromoError(e instanceof Error ? e.message : String(e));
    }
  };

  const pay = async () => {
    const planCode = plan.code;
    if (!chosen || !isPlanCode(planCode)) return;
    const body =
      chosen === 'wallet'
        ? { purpose: PAYMENT_PURPOSE.subscriptionPurchase, planCode, payWithWallet: true, promoCode: quote?.code }
        : { purpose: PAYMENT_PURPOSE.subscriptionPurchase, planCode, cardId: chosen, promoCode: quote?.code };
    const text = JSON.stringify(body);
    const key = attempt.body === text ? attempt.key : newPaymentKey();
    setAttempt({ key, body: text });
    try {
      await createIntent.mutateAsync({ body, key });
    } catch (e) {
      // a refused payment is over: the next click is a new attempt
      setAttempt({ key: newPaymentKey(), body: '' });
      if (e instanceof ApiError && e.code === 'PAYMENT_DECLINED') {
        // the declined card is marked as such; the payer picks the next card, nothing is chosen for them
        setMethod('');
        void qc.invalidateQueries({ queryKey: BILLING.cards });
      }
      showApiError(e);
    }
  };

  return (
    <Container size="lg" py="xl">
      <Title order={1} mb="lg">
        {t('checkout.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder radius="lg" padding="lg">
          <Stack gap="md">
            <Title order={2} fz="h4">
              {t('checkout.payWith')}
            </Title>
            {cards.length === 0 && <Text c="dimmed">{t('checkout.noCards')}</Text>}
            <Radio.Group value={chosen} onChange={setMethod} aria-label={t('checkout.payWith')}>
              <Stack gap="sm">
                {cards.map((c) => (
                  <Radio key={c.id} value={c.id} label={<CardLabel card={c} />} data-testid={`pay-card-${c.last4}`} />
                ))}
                {wallet && (
                  <Radio
                    value="wallet"
                    label={t('checkout.wallet', { amount: formatMoney(wallet.balanceSar, lang) })}
                    disabled={toHalalas(wallet.balanceSar) < toHalalas(totals.totalSar)}
                  />
                )}
              </Stack>
            </Radio.Group>
            <Group>
              <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)} data-testid="add-card">
                {t('checkout.addCard')}
              </Button>
            </Group>
            {/* the test card numbers are typed as printed, in Western digits (e2e/digits.test.ts) */}
            <Text fz="xs" c="dimmed" data-latin-digits>
              {t('checkout.sandboxNote')}
            </Text>
          </Stack>
        </Card>
        <Card withBorder radius="lg" padding="lg">
          <Stack gap="sm">
            <Row label={t('checkout.plan')} value={plan.name} />
            <Divider />
            <Row label={t('checkout.price')} value={formatMoney(totals.priceSar, lang)} />
            {quote && <Row label={t('checkout.discount', { code: quote.code })} value={`− ${formatMoney(quote.discountSar, lang)}`} />}
            <Row label={t('checkout.subtotal')} value={formatMoney(totals.amountSar, lang)} />
            <Row label={t('checkout.vat', { rate: formatPercent(VAT_RATE, lang) })} value={formatMoney(totals.vatSar, lang)} />
            <Divider />
            <Row label={t('checkout.total')} value={formatMoney(totals.totalSar, lang)} strong />
            <Group align="flex-end" gap="xs" wrap="nowrap" mt="sm">
              <TextInput
                label={t('checkout.promo')}
                value={promo}
                onChange={(e) => setPromo(e.currentTarget.value)}
                error={promoError}
                leftSection={<IconTicket size={16} aria-hidden />}
                dir="ltr"
                style={{ flexGrow: 1 }}
                data-testid="promo-input"
              />
              {quote ? (
                <Button variant="default" onClick={() => (setQuote(null), setPromo(''))}>
                  {t('checkout.remove')}
                </Button>
              ) : (
                <Button variant="default" onClick={() => void applyPromo()} disabled={!promo.trim()} data-testid="promo-apply">
                  {t('checkout.apply')}
                </Button>
              )}
            </Group>
            <Button size="md" mt="md" onClick={() => void pay()} loading={createIntent.isPending} disabled={!chosen} data-testid="pay">
              {t('checkout.pay', { amount: formatMoney(totals.totalSar, lang) })}
            </Button>
            {!chosen && (
              <Text fz="sm" c="dimmed">
                {t('checkout.chooseMethod')}
              </Text>
            )}
          </Stack>
        </Card>
      </SimpleGrid>
      <Modal opened={adding} onClose={() => setAdding(false)} title={t('checkout.addCard')} size="lg">
        <CardForm
          onSaved={(c) => {
            setMethod(c.id);
            setAdding(false);
          }}
        />
      </Modal>
    </Container>
  );
}
