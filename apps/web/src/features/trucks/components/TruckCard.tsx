import type { ReactNode } from 'react';
import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import { IconTruck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Truck } from '@masar/shared';
import { asLang, cityName, formatDate, formatMoney, formatNumber } from '../../../components/format';
import { refName, useEquipmentTypes } from '../../../components/reference';
import { AccountRecordSummary } from '../../../components/AccountRecord';

/** Where a truck goes, in the reader's language: "Anywhere" or its cities and regions. */
export function destinationsText(truck: Truck, lang: 'en' | 'ar', anywhere: string) {
  if (truck.anywhere) return anywhere;
  return [...truck.destinationCities, ...truck.destinationRegions].map((c) => cityName(c, lang)).join(lang === 'ar' ? '، ' : ', ');
}

/**
 * One truck post: lane, window, rate, capacity, equipment, the carrier (and verification, and its
 * fact-based record when the API gave one: search results, details), the vehicle; `actions`
 * below. `detailed`: the truck's details (the record's figures spelled out).
 */
export function TruckCard({ truck, actions, onOpen, detailed = false }: { truck: Truck; actions?: ReactNode; onOpen?: () => void; detailed?: boolean }) {
  const { t, i18n } = useTranslation('trucks');
  const lang = asLang(i18n.language);
  const eq = useEquipmentTypes();
  const rate = formatMoney(truck.minRateSar, lang);
  return (
    <Card withBorder padding="sm" data-testid="truck-card" data-truck-id={truck.id}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <IconTruck size={18} aria-hidden />
            <Text
              fw={600}
              component={onOpen ? 'button' : 'span'}
              onClick={onOpen}
              style={onOpen ? { all: 'unset', cursor: 'pointer', fontWeight: 600 } : undefined}
            >
              {cityName(truck.origin, lang)} {lang === 'ar' ? '←' : '→'} {destinationsText(truck, lang, t('card.anywhere'))}
            </Text>
          </Group>
          <Group gap={4}>
            <Badge variant="light">{t(`card.loadType.${truck.loadType}`)}</Badge>
            <Badge variant="light" color={truck.status === 'posted' ? 'green' : 'gray'} data-testid="truck-status">
              {t(`status.${truck.status}`)}
            </Badge>
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {t('card.window', { from: formatDate(truck.availableFrom, lang, false), to: formatDate(truck.availableTo, lang, false) })} ·{' '}
          {refName(eq.data, truck.equipmentType, lang)}
        </Text>
        <Group gap="md" wrap="wrap">
          <Text size="sm">{t(truck.rateBasis === 'km' ? 'card.rateKm' : 'card.rateTrip', { value: rate })}</Text>
          <Text size="sm">{t('card.capacity', { value: formatNumber(truck.capacityKg, lang) })}</Text>
          {truck.deadheadKm !== undefined && <Text size="sm">{t('card.deadhead', { value: formatNumber(truck.deadheadKm, lang, 1) })}</Text>}
          {truck.loadType === 'LTL' && truck.pallets != null && <Text size="sm">{t('card.pallets', { value: formatNumber(truck.pallets, lang) })}</Text>}
          {truck.loadType === 'LTL' && truck.spaceCm != null && <Text size="sm">{t('card.space', { value: formatNumber(truck.spaceCm / 100, lang, 1) })}</Text>}
        </Group>
        <Group gap="xs" wrap="wrap">
          <Text size="sm">
            <bdi>{truck.company}</bdi>
          </Text>
          <Badge size="sm" variant="outline" color={truck.verified ? 'green' : 'gray'}>
            {truck.verified ? t('card.verified') : t('card.notVerified')}
          </Badge>
          {truck.vehicle && (
            <Text size="sm" c="dimmed">
              {t('card.plate', { value: truck.vehicle.plate })} ·{' '}
              {t('card.wasl', { value: t(`card.waslStatus.${truck.vehicle.waslStatus}`, { defaultValue: '' }) })}
              {truck.vehicle.trailer ? ` · ${t('card.trailer', { value: truck.vehicle.trailer.trailerNumber })}` : ''}
            </Text>
          )}
        </Group>
        {truck.record && !truck.isMine && <AccountRecordSummary record={truck.record} expanded={detailed} />}
        {truck.comments && (
          <Text size="sm" c="dimmed">
            {truck.comments}
          </Text>
        )}
        {actions}
      </Stack>
    </Card>
  );
}
