import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { createOfferBody, MOBILE_BREAKPOINT_PX, type Load, type Offer } from '@masar/shared';
import { NumberInput } from '../../../components/NumberInput';
import { LaneRateHint } from '../../../components/LaneRateHint';
import { asLang, formatMoney } from '../../../components/format';
import { StatusBadge } from '../../../components/LoadStatusBadge';
import { OfferActions, OfferHistory } from './OfferActions';
import { notifyError, notifySuccess } from '../../../components/notify';
import { fieldErrors } from '../../../lib/form';
import { usePlaceBid, useSentOffers } from '../api/offers';

const PHONE = `(max-width: ${MOBILE_BREAKPOINT_PX}px)`;

/** True while `el` is on screen (false where IntersectionObserver is missing). */
function useOnScreen(el: React.RefObject<HTMLElement | null>) {
  const [on, setOn] = useState(false);
  useEffect(() => {
    if (!el.current || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(([e]) => setOn(e?.isIntersecting ?? false));
    io.observe(el.current);
    return () => io.disconnect();
  }, [el]);
  return on;
}

/**
 * On a phone the bid form sits below the load's details (issue 23: y≈1,090 at 390 px). Until it
 * is on screen, a bar fixed above the bottom navigation shows the asking price and a "Place bid"
 * button that brings the form into view and focuses the price. `--masar-bottom-offset` is set by
 * the app layout (bottom bar + status banner).
 */
function StickyBidBar({ load, target, onGo }: { load: Load; target: React.RefObject<HTMLElement | null>; onGo: () => void }) {
  const { t, i18n } = useTranslation('loads');
  const phone = useMediaQuery(PHONE, false) ?? false;
  const visible = useOnScreen(target);
  if (!phone || visible) return null;
  return (
    <Paper
      shadow="md"
      p="xs"
      data-testid="bid-sticky"
      style={{ position: 'fixed', insetInline: 0, insetBlockEnd: 'var(--masar-bottom-offset, 0px)', zIndex: 150, borderRadius: 0 }}
    >
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">{t('bid.hint', { price: formatMoney(load.priceSar, asLang(i18n.language)) })}</Text>
        <Button size="sm" onClick={onGo} data-testid="bid-sticky-go">
          {t('bid.submit')}
        </Button>
      </Group>
    </Paper>
  );
}

/** A carrier's (or broker's) side of a load they don't own: place a bid, follow and answer their offer. */
export function BidPanel({ load }: { load: Load }) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const sent = useSentOffers(true);
  const bid = usePlaceBid();
  const [price, setPrice] = useState<number | string>(load.priceSar);
  const [error, setError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement | null>(null);
  const goToForm = () => {
    formRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    formRef.current?.querySelector('input')?.focus({ preventScroll: true });
  };
  const mine = (sent.data ?? []).filter((o) => o.loadId === load.id).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const open: Offer | undefined = mine.find((o) => o.status === 'pending' || o.status === 'accepted');
  const latest = open ?? mine[0];
  // opened from the board's B shortcut (…/loads/:id#bid): straight to the price
  const { hash } = useLocation();
  const showForm = !open && load.status === 'posted';
  useEffect(() => {
    if (hash === '#bid' && showForm) goToForm();
  }, [hash, showForm]);

  const submit = () => {
    if (bid.isPending) return;
    const body = { loadId: load.id, priceSar: price === '' ? undefined : String(price) };
    const r = createOfferBody.safeParse(body);
    if (!r.success) {
      setError(fieldErrors(r.error.issues, lang).priceSar ?? null);
      return;
    }
    setError(null);
    bid.mutate(r.data, { onSuccess: () => notifySuccess(t('bid.sent')), onError: notifyError });
  };

  return (
    <Paper withBorder p="md" data-testid="bid-panel">
      <Title order={4} mb="sm">
        {t('bid.title')}
      </Title>
      {latest && (
        <Stack gap="xs" mb="md" data-testid="my-offer">
          <Group justify="space-between">
            <Text>
              {t('bid.yourOffer')}: <b>{formatMoney(latest.priceSar, lang)}</b>
            </Text>
            <StatusBadge status={latest.status} kind="offer" />
          </Group>
          {latest.priceSar !== latest.originalPriceSar && (
            <Text size="sm" c="dimmed">
              {t('offer.originalPrice')}: {formatMoney(latest.originalPriceSar, lang)}
            </Text>
          )}
          {latest.status === 'pending' && latest.lastOfferBy === 'shipper' && (
            <Alert color="yellow" variant="light">
              {t('bid.countered', { price: formatMoney(latest.priceSar, lang) })}
            </Alert>
          )}
          {latest.status === 'accepted' && (
            <Alert color="masar" variant="light">
              {t('bid.accepted')}
            </Alert>
          )}
          <OfferActions offer={latest} side="carrier" />
          <OfferHistory offer={latest} />
        </Stack>
      )}
      {!open && load.status === 'posted' && (
        // A form, so Enter in the price field places the bid (issue 23).
        <form
          ref={formRef}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Stack gap="xs">
            <Group align="flex-start" wrap="nowrap">
              <NumberInput
                aria-label={t('bid.price')}
                placeholder={t('bid.price')}
                value={price}
                onChange={setPrice}
                min={1}
                thousandSeparator=","
                decimalScale={2}
                rightSection={<Text size="xs">{t('unit.sar')}</Text>}
                rightSectionWidth={48}
                error={error}
                style={{ flex: 1 }}
                data-testid="bid-input"
              />
              <Button type="submit" loading={bid.isPending} data-testid="bid-submit">
                {t('bid.submit')}
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              {t('bid.hint', { price: formatMoney(load.priceSar, lang) })}
            </Text>
            <LaneRateHint origin={load.stops[0]?.cityId} destination={load.stops[load.stops.length - 1]?.cityId} equipment={load.equipmentType} price={price} />
          </Stack>
          <StickyBidBar load={load} target={formRef} onGo={goToForm} />
        </form>
      )}
      {!open && load.status !== 'posted' && (
        <Text c="dimmed" size="sm">
          {t('bid.closed')}
        </Text>
      )}
    </Paper>
  );
}
