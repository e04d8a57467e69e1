import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Escrow, Load } from '@masar/shared';
import { useTranslation } from 'react-i18next';
import { asLang, formatMoney } from '../../../components/format';
import { DateText } from '../../../components/Money';
import { useEscrow, useFundEscrow } from '../api/loads';
import { Slot } from '../../../components/slots';
import { DetentionPanel } from './DetentionPanel';

const STATUS_COLOR: Record<Escrow['status'], string> = {
  unfunded: 'masarYellow',
  funded: 'masar',
  release_scheduled: 'masar',
  disputed: 'masarRed',
  released: 'masar',
  settled: 'gray',
  refunded: 'gray',
  cancelled: 'gray',
};

/**
 * The escrow of a protected load for its shipper and booked carrier (GET /loads/:id/escrow): the
 * carrier sees "Funded" before it assigns a truck; the shipper funds an unfunded one from its wallet.
 */
export function EscrowPanel({ load, isShipper }: { load: Pick<Load, 'id' | 'paymentProtection'>; isShipper: boolean }) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const q = useEscrow(load.id, load.paymentProtection);
  const fund = useFundEscrow(load.id);
  const [key] = useState(() => crypto.randomUUID());
  const e = q.data;
  if (!load.paymentProtection || !e) return null;
  return (
    <Paper withBorder p="md" data-testid="escrow-panel">
      <Group justify="space-between" mb="xs">
        <Title order={4}>{t('protection.title')}</Title>
        <Badge color={STATUS_COLOR[e.status]} data-testid="escrow-status">
          {t(`protection.status.${e.status}`)}
        </Badge>
      </Group>
      <Stack gap={4}>
        <Text size="sm">
          {t('protection.amount', { total: formatMoney(e.totalSar, lang), price: formatMoney(e.priceSar, lang), vat: formatMoney(e.vatSar, lang) })}
        </Text>
        {e.releaseAt && e.status === 'release_scheduled' && (
          <Text size="sm" c="dimmed">
            {t('protection.releaseAt')} <DateText value={e.releaseAt} />
          </Text>
        )}
        {e.dispute && (
          <Text size="sm" c="dimmed">
            {t('protection.disputeBy', { by: t(`protection.party.${e.dispute.by}`) })} {e.dispute.reason}
          </Text>
        )}
        {isShipper && e.status === 'unfunded' && (
          <>
            <Text size="sm">{t('protection.unfundedHint')}</Text>
            {fund.error && (
              <Alert color="masarRed" variant="light">
                {fund.error.message}
              </Alert>
            )}
            <Group>
              <Button size="xs" loading={fund.isPending} onClick={() => fund.mutate(key)} data-testid="escrow-fund">
                {t('protection.fund')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The side panels of a load's parties: the owner's offers (a slot of the offers feature), and for the
 * shipper and the booked carrier the escrow and, while assigned or completed, the detention (issue 50).
 */
export function PartyPanels({ load, isOwner, bookedByMe }: { load: Load; isOwner: boolean; bookedByMe: boolean }) {
  const party = (isOwner || bookedByMe) && !!load.carrierId;
  return (
    <>
      {isOwner && <Slot name="OwnerOffersPanel" load={load} />}
      {party && <EscrowPanel load={load} isShipper={isOwner} />}
      {party && load.detentionRateSar && (load.status === 'assigned' || load.status === 'completed') && <DetentionPanel loadId={load.id} isShipper={isOwner} />}
    </>
  );
}
