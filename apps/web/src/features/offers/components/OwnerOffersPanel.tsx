import { Alert, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Load } from '@masar/shared';
import { asLang, formatMoney } from '../../../components/format';
import { StatusBadge } from '../../../components/LoadStatusBadge';
import { DateText } from '../../../components/Money';
import { OfferActions, OfferHistory } from './OfferActions';
import { useLoadOffers } from '../api/offers';
import { Slot } from '../../../components/slots';
import { AccountRecordSummary } from '../../../components/AccountRecord';

/** The owner's view of bids on a load: each offer with its history and accept / reject / counter. */
export function OwnerOffersPanel({ load }: { load: Load }) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const offers = useLoadOffers(load.id, true);
  return (
    <Paper withBorder p="md" data-testid="owner-offers">
      <Title order={4} mb="sm">
        {t('offer.onLoad', { count: offers.data?.length ?? 0 })}
      </Title>
      {offers.isLoading && (
        <Center h={80}>
          <Loader size="sm" />
        </Center>
      )}
      {offers.isError && <Alert color="masarRed">{offers.error.message}</Alert>}
      {offers.data?.length === 0 && (
        <Text c="dimmed" size="sm">
          {t('offer.none')}
        </Text>
      )}
      <Stack gap="sm">
        {offers.data?.map((o) => (
          <Paper key={o.id} withBorder p="sm" radius="sm" data-testid={`offer-row-${o.id}`}>
            <Group justify="space-between" wrap="wrap">
              <Stack gap={0}>
                <Group gap={4} wrap="nowrap">
                  <Text fw={600}>
                    <bdi>{o.carrierCompany}</bdi>
                  </Text>
                  <Slot name="RelationMenu" userId={o.carrierId} companyName={o.carrierCompany} />
                  <Slot name="MessageButton" loadId={o.loadId} counterpartId={o.carrierId} to="carrier" />
                </Group>
                <Text size="xs" c="dimmed">
                  <DateText value={o.updatedAt} />
                </Text>
              </Stack>
              <Group gap="sm">
                <Stack gap={0} align="flex-end">
                  <Text fw={700}>{formatMoney(o.priceSar, lang)}</Text>
                  {o.priceSar !== o.originalPriceSar && (
                    <Text size="xs" c="dimmed" td="line-through">
                      {formatMoney(o.originalPriceSar, lang)}
                    </Text>
                  )}
                </Stack>
                <StatusBadge status={o.status} kind="offer" />
              </Group>
            </Group>
            {o.carrierRecord && (
              <Group mt="xs">
                <AccountRecordSummary record={o.carrierRecord} />
              </Group>
            )}
            <Group mt="xs">
              <OfferActions offer={o} side="shipper" />
            </Group>
            {o.history.length > 1 && (
              <Stack mt="xs">
                <OfferHistory offer={o} />
              </Stack>
            )}
          </Paper>
        ))}
      </Stack>
    </Paper>
  );
}
