import { useEffect, useState } from 'react';
import { Alert, Button, Card, Group, Modal, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconFileCertificate, IconPrinter } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { BAYAN_CANCEL_REASONS, type BayanCancelReasonCode, type LoadOption } from '@masar/shared';
import { downloadFile } from '../../../components/transfer';
import { masar, unwrap, idempotent } from '../../../lib/api';
import { notifySuccess, showApiError } from '../../../lib/form';
import { BAYAN, newBayanKey, useLoadBayan } from '../api';
import { BayanStatusBadge } from './BayanStatusBadge';

export interface BayanPanelProps {
  loadId: string;
  /** The shipment's More Options (Load.options): which of create / close / cancel Bayan to offer. */
  options: readonly LoadOption[];
  /** What the confirmation shows: the assigned vehicle's plate and driver. */
  vehicleLabel?: string;
  driverLabel?: string;
  /**
   * The driver completed the job (Load.deliveredAt set). Before that, "close Bayan" (offered to
   * the shipper only) asks for the reason of closing without proof of delivery (issue 22).
   */
  delivered?: boolean;
  /** After a change (the page refetches the shipment: its status moved). */
  onChanged?: () => void;
}

/**
 * The Bayan of one shipment for its details page (issue 7): the waybill number and status, and
 * the actions the shipment's More Options allow — create (a confirmation step naming the
 * assigned vehicle and driver), close (completes the shipment), cancel with a reason (cancels
 * the shipment), print.
 */
export function BayanPanel({ loadId, options, vehicleLabel, driverLabel, delivered = true, onChanged }: BayanPanelProps) {
  const { t } = useTranslation('bayan');
  const qc = useQueryClient();
  const { data: bayan } = useLoadBayan(loadId);
  const [dialog, setDialog] = useState<'create' | 'close' | 'cancel' | null>(null);
  const [reason, setReason] = useState<BayanCancelReasonCode | null>(null);
  const [overrideReason, setOverrideReason] = useState('');
  const [key, setKey] = useState(newBayanKey);
  // More Options → "<details>?action=create_bayan|close_bayan|cancel_bayan" opens the dialog
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    const a = params.get('action');
    const map = { create_bayan: 'create', close_bayan: 'close', cancel_bayan: 'cancel' } as const;
    if (a && a in map && options.includes(a as LoadOption)) {
      setDialog(map[a as keyof typeof map]);
      params.delete('action');
      setParams(params, { replace: true });
    }
  }, [params, setParams, options]);

  /** After any Bayan write succeeded: say so, close the dialog, take a fresh key, refetch the Bayan and the shipment. */
  const done = async (message: string) => {
    notifySuccess(message);
    setDialog(null);
    setKey(newBayanKey());
    await qc.invalidateQueries({ queryKey: BAYAN.ofLoad(loadId) });
    await qc.invalidateQueries({ queryKey: BAYAN.list });
    onChanged?.();
  };
  const createBayan = useMutation({
    mutationFn: (idempotencyKey: string) => unwrap(masar.POST('/api/v1/bayan/trips', { body: { loadId }, headers: idempotent(idempotencyKey) })),
    onSuccess: (b) => done(b.status === 'pending' ? t('panel.pendingNotice') : t('panel.created', { number: b.waybillNumber })),
    onError: (e) => showApiError(e),
  });
  const closeBayan = useMutation({
    mutationFn: (v: { id: string; overrideReason?: string }) =>
      unwrap(
        masar.POST('/api/v1/bayan/trips/{id}/close', {
          params: { path: { id: v.id } },
          body: { deliveredAt: new Date().toISOString(), ...(v.overrideReason === undefined ? {} : { overrideReason: v.overrideReason }) },
        }),
      ),
    onSuccess: () => done(t('panel.closed')),
    onError: (e) => showApiError(e),
  });
  const cancelBayan = useMutation({
    mutationFn: (v: { id: string; reason: BayanCancelReasonCode }) =>
      unwrap(masar.POST('/api/v1/bayan/trips/{id}/cancel', { params: { path: { id: v.id } }, body: { reason: v.reason } })),
    onSuccess: () => done(t('panel.cancelled')),
    onError: (e) => showApiError(e),
  });
  const busy = createBayan.isPending || closeBayan.isPending || cancelBayan.isPending;
  const create = () => createBayan.mutate(key);
  const close = () => bayan && closeBayan.mutate({ id: bayan.id, ...(delivered ? {} : { overrideReason: overrideReason.trim() }) });
  const cancel = () => bayan && reason && cancelBayan.mutate({ id: bayan.id, reason });

  const can = (o: LoadOption) => options.includes(o);
  if (!bayan && !can('create_bayan')) return null;
  return (
    <Card withBorder padding="md" data-testid="bayan-panel">
      <Stack gap="xs">
        <Group justify="space-between">
          <Group gap="xs">
            <IconFileCertificate size={20} />
            <Title order={4}>{t('panel.title')}</Title>
          </Group>
          {bayan && <BayanStatusBadge status={bayan.status} />}
        </Group>
        {bayan ? (
          <Text data-testid="bayan-waybill">
            {t('panel.waybill')}:{' '}
            <Text span fw={700} dir="ltr">
              {bayan.waybillNumber ?? t('pendingNumber')}
            </Text>
          </Text>
        ) : (
          <Text fz="sm" c="dimmed">
            {t('panel.none')}
          </Text>
        )}
        <Group gap="xs">
          {can('create_bayan') && !bayan?.tripId && bayan?.status !== 'pending' && <Button onClick={() => setDialog('create')}>{t('panel.create')}</Button>}
          {can('close_bayan') && bayan?.status === 'active' && (
            <Button color="green" variant="light" onClick={() => setDialog('close')}>
              {t('panel.close')}
            </Button>
          )}
          {can('cancel_bayan') && bayan && (bayan.status === 'active' || bayan.status === 'pending') && (
            <Button color="red" variant="light" onClick={() => setDialog('cancel')}>
              {t('panel.cancel')}
            </Button>
          )}
          {bayan?.tripId && (
            <Button
              variant="subtle"
              leftSection={<IconPrinter size={14} />}
              onClick={() =>
                void downloadFile(
                  masar.GET('/api/v1/bayan/trips/{id}/print', { params: { path: { id: bayan.id } }, parseAs: 'blob' }),
                  `bayan-${bayan.waybillNumber ?? bayan.tripId}.pdf`,
                ).catch((e: unknown) => showApiError(e))
              }
            >
              {t('print')}
            </Button>
          )}
        </Group>
      </Stack>

      <Modal opened={dialog === 'create'} onClose={() => setDialog(null)} title={t('panel.confirmTitle')}>
        <Stack>
          <Text>{t('panel.confirmText')}</Text>
          {vehicleLabel && <Text fz="sm">{t('panel.vehicle', { plate: vehicleLabel })}</Text>}
          {driverLabel && <Text fz="sm">{t('panel.driver', { name: driverLabel })}</Text>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              {t('panel.back')}
            </Button>
            <Button loading={busy} onClick={create}>
              {t('panel.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={dialog === 'close'} onClose={() => setDialog(null)} title={t('panel.close')}>
        <Stack>
          <Text>{t('panel.closeText')}</Text>
          {!delivered && (
            <>
              <Alert color="orange" data-testid="bayan-override-warning">
                {t('panel.notDelivered')}
              </Alert>
              <Textarea
                label={t('panel.overrideReason')}
                description={t('panel.overrideHint')}
                required
                minRows={2}
                maxLength={500}
                value={overrideReason}
                onChange={(e) => setOverrideReason(e.currentTarget.value)}
              />
            </>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              {t('panel.back')}
            </Button>
            <Button color="green" loading={busy} disabled={!delivered && overrideReason.trim().length < 3} onClick={close}>
              {t('panel.close')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={dialog === 'cancel'} onClose={() => setDialog(null)} title={t('panel.cancel')}>
        <Stack>
          <Text>{t('panel.cancelText')}</Text>
          <Select
            label={t('panel.reason')}
            required
            data={BAYAN_CANCEL_REASONS.map((r) => ({ value: r, label: t(`reason.${r}`) }))}
            value={reason}
            onChange={(v) => setReason(v)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              {t('panel.back')}
            </Button>
            <Button color="red" disabled={!reason} loading={busy} onClick={cancel}>
              {t('panel.cancel')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
