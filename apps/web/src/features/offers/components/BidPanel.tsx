import { useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { createOfferBody, type Load, type Offer } from '@masar/shared';
import { NumberInput } from '../../../components/NumberInput';
import { asLang, formatMoney } from '../../../components/format';
import { StatusBadge } from '../../../components/LoadStatusBadge';
import { OfferActions, OfferHistory } from './OfferActions';
import { notifyError, notifySuccess } from '../../../components/notify';
import { fieldErrors } from '../../../lib/form';
import { usePlaceBid, useSentOffers } from '../api/offers';

/** A carrier's (or broker's) side of a load they don't own: place a bid, follow and answer their offer. */
export function BidPanel({ load }: { load: Load }) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const sent = useSentOffers(true);
  const bid = usePlaceBid();
  const [price, setPrice] = useState<number | string>(load.priceSar);
  const [error, setError] = useState<string | null>(null);
  const mine = (sent.data ?? []).filter((o) => o.loadId === load.id).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const open: Offer | undefined = mine.find((o) => o.status === 'pending' || o.status === 'accepted');
  const latest = open ?? mine[0];

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
          </Stack>
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
