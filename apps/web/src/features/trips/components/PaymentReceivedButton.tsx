import { useEffect, useRef, useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { asLang, formatMoney, formatNumber } from '../../../components/format';
import { notifyError, notifySuccess } from '../../../components/notify';
import { loadNamespaces } from '../../../i18n';
import { trackingApi } from '../api/trips';

/** How long "payment received" can be taken back before it is sent (issue 23). */
export const PAYMENT_UNDO_MS = 10_000;

/**
 * The awarded carrier marks the payment of a delivered shipment received (More Options
 * 'payment_received'; POST /loads/:id/payment-received). For the load page (the lead places it).
 *
 * Issue 23: it asks first, showing the amount; after the confirmation it offers Undo for 10 s
 * and only then sends the request. The server has no way back: marking the payment stamps the
 * load and publishes load.payment_received (it feeds the shipper's days-to-pay) with no reverse
 * transition in the lifecycle, so the undo window is kept in the browser, before anything is
 * written. Leaving the page inside the window sends it at once (the user did confirm).
 */
export function PaymentReceivedButton({ loadId, amountSar, onDone }: { loadId: string; amountSar: string; onDone?: () => void }) {
  const { t, i18n } = useTranslation('trips');
  const lang = asLang(i18n.language);
  const qc = useQueryClient();
  // its strings live in the page namespace 'trips': fetch them first
  const ns = useQuery({ queryKey: ['i18n-ns', 'trips'], queryFn: () => loadNamespaces(['trips']).then(() => true), staleTime: Infinity });
  const m = useMutation({
    mutationFn: () => trackingApi.paymentReceived(loadId),
    onSuccess: () => {
      notifySuccess(t('pay.marked'));
      void qc.invalidateQueries();
      onDone?.();
    },
    onError: notifyError,
  });
  const [confirming, setConfirming] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const send = useRef(m.mutate);
  send.current = m.mutate;
  useEffect(
    () => () => {
      if (timer.current === null) return;
      clearTimeout(timer.current);
      send.current();
    },
    [],
  );
  if (!ns.data) return null;

  const confirm = () => {
    setConfirming(false);
    setWaiting(true);
    timer.current = setTimeout(() => {
      timer.current = null;
      setWaiting(false);
      m.mutate();
    }, PAYMENT_UNDO_MS);
  };
  const undo = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    setWaiting(false);
  };
  const amount = formatMoney(amountSar, lang);

  return (
    <>
      {waiting ? (
        <Group gap="xs" data-testid="payment-pending">
          <Text size="sm" role="status">
            {t('pay.pending', { amount, seconds: formatNumber(PAYMENT_UNDO_MS / 1000, lang) })}
          </Text>
          <Button variant="subtle" size="xs" onClick={undo} data-testid="payment-undo">
            {t('pay.undo')}
          </Button>
        </Group>
      ) : (
        <Button variant="light" loading={m.isPending} onClick={() => setConfirming(true)} data-testid="payment-received">
          {t('pay.markReceived')}
        </Button>
      )}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('pay.confirmTitle')} centered>
        <Stack gap="md">
          <Text data-testid="payment-amount">{t('pay.confirmText', { amount })}</Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common:actions.cancel')}
            </Button>
            <Button onClick={confirm} data-testid="payment-confirm">
              {t('pay.markReceived')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
