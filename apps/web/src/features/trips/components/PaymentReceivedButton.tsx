import { Button } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../components/notify';
import { loadNamespaces } from '../../../i18n';
import { trackingApi } from '../api/trips';

/**
 * The awarded carrier marks the payment of a delivered shipment received (More Options
 * 'payment_received'; POST /loads/:id/payment-received). For the load page (the lead places it).
 */
export function PaymentReceivedButton({ loadId, onDone }: { loadId: string; onDone?: () => void }) {
  const { t } = useTranslation('trips');
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
  });
  if (!ns.data) return null;
  return (
    <Button variant="light" loading={m.isPending} onClick={() => m.mutate()} data-testid="payment-received">
      {t('pay.markReceived')}
    </Button>
  );
}
