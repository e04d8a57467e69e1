import { useState } from 'react';
import { Badge, Button, Card, Container, Group, List, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AUDIENCE_OF, TRIAL_DAYS, VAT_RATE, type PlanView } from '@masar/shared';
import { asLang, formatMoney, formatPercent } from '../../../components/format';
import { useRoleBase, useViewer } from '../../../components/useViewer';
import { masar, unwrap } from '../../../lib/api';
import { notifySuccess, showApiError } from '../../../lib/form';
import { PROFILE_QUERY_KEY } from '../../../lib/session';
import { BILLING, isPlanCode, usePlans, useSubscription, type PlanCode } from '../api';

type Audience = PlanView['audience'];

function PlanCard({
  plan,
  current,
  onTrial,
  onSubscribe,
  busy,
}: {
  plan: PlanView;
  current: boolean;
  onTrial?: () => void;
  onSubscribe: () => void;
  busy: boolean;
}) {
  const { t, i18n } = useTranslation('billing');
  const lang = asLang(i18n.language);
  const yearly = plan.months === 12;
  return (
    <Card withBorder radius="lg" padding="lg" data-testid={`plan-${plan.code}`}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start">
          <Title order={2} fz="h3">
            {plan.name}
          </Title>
          {yearly && <Badge variant="light">{t('pricing.yearlySaving')}</Badge>}
          {current && <Badge color="masar">{t('pricing.current')}</Badge>}
        </Group>
        <div>
          <Text fz={32} fw={800} lh={1.1}>
            {formatMoney(plan.priceSar, lang)}
          </Text>
          <Text c="dimmed" fz="sm">
            {yearly ? t('pricing.perYear') : t('pricing.perMonth')}
          </Text>
          <Text fz="sm" mt={4}>
            {t('pricing.vat', { rate: formatPercent(VAT_RATE, lang), amount: formatMoney(plan.vatSar, lang) })}
          </Text>
          <Text fz="sm" fw={600}>
            {t('pricing.total', { amount: formatMoney(plan.totalSar, lang) })}
          </Text>
        </div>
        <List spacing={6} size="sm" icon={<IconCheck size={16} aria-hidden />} style={{ flexGrow: 1 }}>
          {plan.features.map((f) => (
            <List.Item key={f}>{t(`feature.${f}`)}</List.Item>
          ))}
        </List>
        <Stack gap="xs">
          <Button onClick={onSubscribe} disabled={current} loading={busy} data-testid={`subscribe-${plan.code}`}>
            {t('pricing.subscribe')}
          </Button>
          {onTrial && (
            <Button variant="light" onClick={onTrial} loading={busy} data-testid={`trial-${plan.code}`}>
              {t('pricing.trial', { days: plan.trialDays })}
            </Button>
          )}
        </Stack>
      </Stack>
    </Card>
  );
}

/**
 * Pricing (spec §1 public page, §2 "pricing and plans (carrier, TMS, shipper)"): the plans of
 * each audience with VAT; a signed-in user sees the plans of their account type, starts the
 * free trial or goes to checkout; a guest is sent to sign up.
 */
export default function PricingPage() {
  const { t, i18n } = useTranslation('billing');
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { isSignedIn, accountType } = useViewer();
  const base = useRoleBase(accountType);
  const mine: Audience | null = accountType ? AUDIENCE_OF[accountType] : null;
  const [audience, setAudience] = useState<Audience>(mine ?? 'shipper');
  const shown = mine ?? audience;
  const { data: plans, isLoading } = usePlans(i18n.language);
  const { data: subscription } = useSubscription(isSignedIn);
  const trial = useMutation({
    mutationFn: ({ planCode }: { planCode: PlanCode; trialDays: number }) => unwrap(masar.POST('/api/v1/subscription/trial', { body: { planCode } })),
    // awaited by the mutation: the plan's button stays busy until the subscription and profile are fresh
    onSuccess: async (_, { trialDays }) => {
      notifySuccess(t('pricing.trialStarted', { days: trialDays }));
      await Promise.all([qc.invalidateQueries({ queryKey: BILLING.subscription }), qc.invalidateQueries({ queryKey: PROFILE_QUERY_KEY })]);
      void navigate(`${base}/billing-and-invoice`);
    },
  });

  const startTrial = async (plan: PlanView) => {
    const planCode = plan.code;
    if (!isPlanCode(planCode)) return;
    try {
      await trial.mutateAsync({ planCode, trialDays: plan.trialDays });
    } catch (e) {
      showApiError(e);
    }
  };
  const subscribe = (plan: PlanView) => void navigate(isSignedIn ? `${base}/checkout?plan=${plan.code}` : '/signup');
  const canTrial = isSignedIn && subscription === null;

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>{t('pricing.title')}</Title>
          <Text c="dimmed" mt="xs" maw={720}>
            {t('pricing.intro', { vat: formatPercent(VAT_RATE, asLang(i18n.language)), days: TRIAL_DAYS })}
          </Text>
        </div>
        {mine ? (
          <Text fz="sm">{t('pricing.otherAudience', { audience: t(`pricing.${mine}`) })}</Text>
        ) : (
          <SegmentedControl
            aria-label={t('pricing.audience')}
            value={audience}
            onChange={(v) => setAudience(v)}
            data={(['shipper', 'carrier', 'tms'] as const).map((a) => ({ value: a, label: t(`pricing.${a}`) }))}
            fullWidth
            maw={640}
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {isLoading || !plans
            ? [0, 1].map((i) => <Skeleton key={i} h={360} radius="lg" />)
            : plans
                .filter((p) => p.audience === shown)
                .map((p) => (
                  <PlanCard
                    key={p.code}
                    plan={p}
                    current={subscription?.planCode === p.code && subscription.active && !subscription.trial}
                    busy={trial.isPending && trial.variables.planCode === p.code}
                    onTrial={canTrial ? () => void startTrial(p) : undefined}
                    onSubscribe={() => subscribe(p)}
                  />
                ))}
        </SimpleGrid>
        {!isSignedIn && (
          <Group>
            <Button variant="subtle" onClick={() => void navigate('/signup')}>
              {t('pricing.signUpFirst')}
            </Button>
          </Group>
        )}
      </Stack>
    </Container>
  );
}
