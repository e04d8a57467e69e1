import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';

import { asLang, formatMoney } from '../../../components/format';
import { useRoleBase, useViewer } from '../../../components/useViewer';
import { ApiError, masar, unwrap } from '../../../lib/api';
import { PROFILE_QUERY_KEY } from '../../../lib/session';

/**
 * Back from 3-D Secure (/checkout/confirm?intent=…): the server asks the payment gateway how the
 * payment ended (a redirect proves nothing). With the sandbox gateway (&sandbox=1) this page is
 * also the bank's page: the payer approves or declines.
 */
export default function PaymentConfirmPage() {
  const { t, i18n } = useTranslation('billing');
  const lang = asLang(i18n.language);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { accountType } = useViewer();
  const base = useRoleBase(accountType);
  const id = params.get('intent') ?? '';
  const sandbox = params.get('sandbox') === '1';
  const { data: intent } = useQuery({
    queryKey: ['billing', 'intent', id],
    queryFn: () => unwrap(masar.GET('/api/v1/payments/intents/{id}', { params: { path: { id } } })),
    enabled: !!id,
  });
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const confirmIntent = useMutation({
    mutationFn: ({ id, outcome }: { id: string; outcome?: 'approve' | 'decline' }) =>
      unwrap(masar.POST('/api/v1/payments/intents/{id}/confirm', { params: { path: { id } }, body: outcome ? { outcome } : {} })),
  });
  const started = useRef(false);

  const confirm = async (outcome?: 'approve' | 'decline') => {
    try {
      await confirmIntent.mutateAsync({ id, outcome });
      setResult({ ok: true, message: t('confirm.done') });
      await Promise.all([qc.invalidateQueries({ queryKey: ['billing'] }), qc.invalidateQueries({ queryKey: PROFILE_QUERY_KEY })]);
    } catch (e) {
      setResult({ ok: false, message: e instanceof ApiError ? e.message : t('confirm.failed') });
    }
  };
  // a real acquirer sent the payer back here: check at once
  useEffect(() => {
    if (!sandbox && id && !started.current) {
      started.current = true;
      void confirm();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sandbox, id]);

  return (
    <Container size="sm" py="xl">
      <Card withBorder radius="lg" padding="xl">
        <Stack gap="md">
          <Group gap="xs">
            <IconShieldCheck size={24} aria-hidden />
            <Title order={1} fz="h2">
              {sandbox ? t('confirm.sandboxBank') : t('confirm.title')}
            </Title>
          </Group>
          {result ? (
            <>
              <Alert color={result.ok ? 'masar' : 'red'} title={result.ok ? t('confirm.done') : t('confirm.failed')} data-testid="confirm-result">
                {result.ok ? null : result.message}
              </Alert>
              <Group>
                <Button onClick={() => void navigate(`${base}/billing-and-invoice`)}>{t('confirm.toBilling')}</Button>
              </Group>
            </>
          ) : sandbox ? (
            <>
              <Text>{t('confirm.sandboxText', { amount: intent ? formatMoney(intent.totalSar, lang) : '…' })}</Text>
              <Group>
                <Button onClick={() => void confirm('approve')} loading={confirmIntent.isPending} data-testid="3ds-approve">
                  {t('confirm.approve')}
                </Button>
                <Button variant="default" onClick={() => void confirm('decline')} loading={confirmIntent.isPending} data-testid="3ds-decline">
                  {t('confirm.decline')}
                </Button>
              </Group>
            </>
          ) : (
            <Group gap="sm">
              <Loader size="sm" />
              <Text>{t('confirm.checking')}</Text>
            </Group>
          )}
        </Stack>
      </Card>
    </Container>
  );
}
