import { useState } from 'react';
import { Button, Group, Modal, Popover, Stack, Text, Timeline } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { priceSchema, localizeValidationMessage, type Offer } from '@masar/shared';
import { NumberInput } from '../../../components/NumberInput';
import { masar, unwrap } from '../../../lib/api';
import { asLang, formatMoney } from '../../../components/format';
import { DateText } from '../../../components/Money';
import { notifyError, notifySuccess } from '../../../components/notify';

export type OfferSide = 'carrier' | 'shipper';

/** True when the viewer (on `side`) may answer the offer: it is pending and the other party named the price. */
export const isMyTurn = (offer: Offer, side: OfferSide) => offer.status === 'pending' && offer.lastOfferBy !== side;

/** Refresh everything an offer answer can change (offers, the load, my-loads tabs). */
function useInvalidate() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: ['offers'] }),
      qc.invalidateQueries({ queryKey: ['load'] }),
      qc.invalidateQueries({ queryKey: ['myLoads'] }),
    ]);
}

/**
 * Accept / reject / counter an offer when it is the viewer's turn, withdraw a pending bid of
 * the carrier's own. Server errors (SHIPMENT_ALREADY_ASSIGNED, BIDDING_CLOSED, …) are shown
 * with the server's localized message.
 */
export function OfferActions({ offer, side }: { offer: Offer; side: OfferSide }) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const invalidate = useInvalidate();
  const [counterOpen, setCounterOpen] = useState(false);
  const [counter, setCounter] = useState<number | string>(offer.priceSar);
  const [counterError, setCounterError] = useState<string | null>(null);
  const [confirmAccept, setConfirmAccept] = useState(false);

  const respond = useMutation({
    mutationFn: (body: { action: 'accept' | 'reject' | 'counter'; priceSar?: string }) =>
      unwrap(masar.POST('/api/v1/offerRespond', { body: { offerId: offer.id, ...body } })),
    onSuccess: async (_d, v) => {
      setCounterOpen(false);
      setConfirmAccept(false);
      notifySuccess(t(`offer.done.${v.action}`));
      await invalidate();
    },
    onError: notifyError,
  });
  const withdraw = useMutation({
    mutationFn: () => unwrap(masar.POST('/api/v1/offers/{id}/withdraw', { params: { path: { id: offer.id } } })),
    onSuccess: async () => {
      notifySuccess(t('offer.done.withdraw'));
      await invalidate();
    },
    onError: notifyError,
  });

  const busy = respond.isPending || withdraw.isPending;
  const sendCounter = () => {
    const parsed = priceSchema.safeParse(String(counter));
    if (!parsed.success) {
      setCounterError(localizeValidationMessage(parsed.error.issues[0]?.message ?? 'v.pricePositive', lang));
      return;
    }
    setCounterError(null);
    respond.mutate({ action: 'counter', priceSar: parsed.data });
  };

  if (offer.status !== 'pending') return null;
  if (!isMyTurn(offer, side)) {
    return (
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          {t('offer.waiting')}
        </Text>
        {side === 'carrier' && (
          <Button
            size="xs"
            variant="subtle"
            color="gray"
            loading={withdraw.isPending}
            disabled={busy}
            onClick={() => withdraw.mutate()}
            data-testid={`offer-withdraw-${offer.id}`}
          >
            {t('offer.withdraw')}
          </Button>
        )}
      </Group>
    );
  }
  return (
    <Group gap="xs" wrap="wrap">
      <Button
        size="xs"
        color="masar"
        loading={respond.isPending && respond.variables?.action === 'accept'}
        disabled={busy}
        onClick={() => setConfirmAccept(true)}
        data-testid="offer-accept"
      >
        {t('offer.accept', { price: formatMoney(offer.priceSar, lang) })}
      </Button>
      {/* accepting books the load at this price: one more, explicit step (issue 23) */}
      <Modal opened={confirmAccept} onClose={() => setConfirmAccept(false)} title={t('offer.confirmAccept.title')} centered>
        <Stack gap="md">
          <Text data-testid="offer-accept-amount">{t('offer.confirmAccept.text', { price: formatMoney(offer.priceSar, lang) })}</Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setConfirmAccept(false)} data-testid="offer-accept-cancel">
              {t('common:actions.cancel')}
            </Button>
            <Button
              color="masar"
              loading={respond.isPending && respond.variables?.action === 'accept'}
              onClick={() => respond.mutate({ action: 'accept' })}
              data-testid="offer-accept-confirm"
            >
              {t('offer.confirmAccept.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Popover opened={counterOpen} onChange={setCounterOpen} position="bottom" withArrow trapFocus>
        <Popover.Target>
          <Button size="xs" variant="light" disabled={busy} onClick={() => setCounterOpen((o) => !o)} data-testid="offer-counter">
            {t('offer.counter')}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap="xs">
            <NumberInput
              label={t('offer.counterPrice')}
              value={counter}
              onChange={setCounter}
              min={1}
              thousandSeparator=","
              decimalScale={2}
              error={counterError}
              data-testid="offer-counter-input"
              rightSection={<Text size="xs">{t('unit.sar')}</Text>}
            />
            <Button size="xs" onClick={sendCounter} loading={respond.isPending && respond.variables?.action === 'counter'} data-testid="offer-counter-submit">
              {t('offer.sendCounter')}
            </Button>
          </Stack>
        </Popover.Dropdown>
      </Popover>
      <Button
        size="xs"
        variant="subtle"
        color="masarRed"
        disabled={busy}
        loading={respond.isPending && respond.variables?.action === 'reject'}
        onClick={() => respond.mutate({ action: 'reject' })}
        data-testid="offer-reject"
      >
        {t('offer.reject')}
      </Button>
    </Group>
  );
}

/** The price history of an offer: bid, counters, answers. */
export function OfferHistory({ offer }: { offer: Offer }) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  if (offer.history.length === 0) return null;
  return (
    <Timeline bulletSize={12} lineWidth={2} active={offer.history.length - 1}>
      {offer.history.map((h, i) => (
        <Timeline.Item
          key={i}
          title={
            <Text size="sm">
              {t(`offer.historyEntry.${h.action}`, { defaultValue: h.action, who: t(`offer.party.${h.by}`) })}
              {h.priceSar !== null ? ` · ${formatMoney(h.priceSar, lang)}` : ''}
            </Text>
          }
        >
          <Text size="xs" c="dimmed">
            <DateText value={h.at} />
          </Text>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
