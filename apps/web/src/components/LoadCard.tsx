import type { ReactNode } from 'react';
import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loadPriceOf, type Load } from '@masar/shared';
import { asLang, formatMoney, formatNumber } from './format';
import { Lane, laneOf } from './Lane';
import { DateText } from './Money';
import { StatusBadge } from './LoadStatusBadge';
import { refName, useEquipmentTypes } from './reference';

export type DisplayMode = 'grid' | 'line';

interface Props {
  load: Load;
  mode?: DisplayMode;
  /** Where a click on the card goes (load details). */
  href?: string;
  showStatus?: boolean;
  /** Owner actions (menu, buttons) shown at the end of the card. */
  actions?: ReactNode;
}

function Fact({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Stack gap={0} style={{ minWidth: 0 }} data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} component="div">
        {value}
      </Text>
    </Stack>
  );
}

/**
 * One load on a board or list: lane (P → D), pickup date, equipment, weight, distance, price,
 * rate per km and (in a radius search) deadhead. `grid` is a card, `line` a compact row.
 */
export function LoadCard({ load, mode = 'grid', href, showStatus, actions }: Props) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const eq = useEquipmentTypes();
  const km = (n: number) => t('unit.km', { value: formatNumber(n, lang) });
  const facts = (
    <>
      <Fact label={t('field.pickupDate')} value={<DateText value={load.pickupAt} compact />} />
      <Fact
        label={t('field.equipment')}
        value={
          mode === 'grid' ? refName(eq.data, load.equipmentType, lang) : `${refName(eq.data, load.equipmentType, lang)} · ${t(`loadType.${load.loadType}`)}`
        }
      />
      <Fact label={t('field.weight')} value={t('unit.kg', { value: formatNumber(load.totalWeightKg, lang) })} />
      <Fact label={t('field.distance')} value={km(load.distanceKm)} />
      {load.deadheadKm !== undefined && <Fact label={t('field.deadhead')} value={km(load.deadheadKm)} testId="deadhead" />}
    </>
  );
  // once booked, the agreed price (e.g. after a counter offer) and its rate; the posted one labelled "posted" (issue 22)
  const p = loadPriceOf(load);
  const price = (
    <Stack gap={0} align="flex-end" data-testid="load-card-price">
      <Text fw={700} size="lg" c="masar" aria-label={p.agreed ? `${t('field.agreedPrice')}: ${formatMoney(p.priceSar, lang)}` : undefined}>
        {formatMoney(p.priceSar, lang)}
      </Text>
      {p.agreed && p.postedPriceSar !== p.priceSar && (
        <Text size="xs" c="dimmed" data-testid="load-card-posted-price">
          {t('field.postedPrice', { price: formatMoney(p.postedPriceSar, lang) })}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {t('unit.perKm', { value: formatMoney(p.ratePerKmSar, lang, { decimals: 2 }) })}
      </Text>
    </Stack>
  );
  const names = laneOf(load);
  const lane = <Lane lane={names} extraStops={Math.max(0, load.stops.length - 2)} />;
  const viewLabel = t('action.viewLoad', {
    ref: load.referenceId,
    from: lang === 'ar' ? names.fromAr : names.fromEn,
    to: lang === 'ar' ? names.toAr : names.toEn,
  });
  const head = (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        {href ? (
          // The reference is the card's link; its ::after stretches over the whole card, so a
          // click anywhere opens the load while the link keeps a name that matches its text.
          <Anchor component={Link} to={href} size="xs" ff="monospace" className="masar-card-link" aria-label={viewLabel}>
            {load.referenceId}
          </Anchor>
        ) : (
          <Text size="xs" c="dimmed" ff="monospace">
            {load.referenceId}
          </Text>
        )}
        {showStatus && <StatusBadge status={load.status} />}
        {load.offersCount > 0 && (
          <Badge size="sm" variant="outline">
            {t('offersCount', { count: load.offersCount })}
          </Badge>
        )}
      </Group>
      {actions && <div className="masar-card-actions">{actions}</div>}
    </Group>
  );
  const body =
    mode === 'grid' ? (
      <Stack gap="sm">
        {lane}
        <SimpleGrid cols={2} spacing="xs" verticalSpacing={6}>
          {facts}
        </SimpleGrid>
        <Group justify="space-between" align="flex-end" wrap="nowrap" pt={6} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Text size="xs" c="dimmed">
            {t(`loadType.${load.loadType}`)}
          </Text>
          {price}
        </Group>
      </Stack>
    ) : (
      <Group justify="space-between" wrap="wrap" gap="md">
        <div style={{ minWidth: 220, flex: '1 1 220px' }}>{lane}</div>
        <Group gap="lg" wrap="wrap" style={{ flex: '3 1 420px' }}>
          {facts}
        </Group>
        {price}
      </Group>
    );
  return (
    <Card withBorder padding={mode === 'grid' ? 'md' : 'sm'} pos="relative" data-testid={`load-row-${load.referenceId}`} data-load-id={load.id}>
      <Stack gap={mode === 'grid' ? 'sm' : 4}>
        {head}
        {body}
      </Stack>
    </Card>
  );
}
