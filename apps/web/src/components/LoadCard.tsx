import type { ReactNode } from 'react';
import { Badge, Card, Group, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Load } from '@masar/shared';
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
      <Fact label={t('field.pickupDate')} value={<DateText value={load.pickupAt} />} />
      <Fact
        label={t('field.equipment')}
        value={mode === 'grid' ? refName(eq.data, load.equipmentType, lang) : `${refName(eq.data, load.equipmentType, lang)} · ${load.loadType}`}
      />
      <Fact label={t('field.weight')} value={t('unit.kg', { value: formatNumber(load.totalWeightKg, lang) })} />
      <Fact label={t('field.distance')} value={km(load.distanceKm)} />
      {load.deadheadKm !== undefined && <Fact label={t('field.deadhead')} value={km(load.deadheadKm)} testId="deadhead" />}
    </>
  );
  const price = (
    <Stack gap={0} align="flex-end">
      <Text fw={700} size="lg" c="masar">
        {formatMoney(load.priceSar, lang)}
      </Text>
      <Text size="xs" c="dimmed">
        {t('unit.perKm', { value: formatMoney(load.ratePerKmSar, lang, { decimals: 2 }) })}
      </Text>
    </Stack>
  );
  const head = (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        <Text size="xs" c="dimmed" ff="monospace">
          {load.referenceId}
        </Text>
        {showStatus && <StatusBadge status={load.status} />}
        {load.offersCount > 0 && (
          <Badge size="sm" variant="outline">
            {t('offersCount', { count: load.offersCount })}
          </Badge>
        )}
      </Group>
      {actions}
    </Group>
  );
  const lane = <Lane lane={laneOf(load)} extraStops={Math.max(0, load.stops.length - 2)} />;
  const body =
    mode === 'grid' ? (
      <Stack gap="sm">
        {lane}
        <SimpleGrid cols={2} spacing="xs" verticalSpacing={6}>
          {facts}
        </SimpleGrid>
        <Group justify="space-between" align="flex-end" wrap="nowrap" pt={6} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Text size="xs" c="dimmed">
            {load.loadType}
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
    <Card withBorder padding={mode === 'grid' ? 'md' : 'sm'} data-testid={`load-row-${load.referenceId}`} data-load-id={load.id}>
      <Stack gap={mode === 'grid' ? 'sm' : 4}>
        {head}
        {href ? (
          <UnstyledButton component={Link} to={href} aria-label={t('action.view')}>
            {body}
          </UnstyledButton>
        ) : (
          body
        )}
      </Stack>
    </Card>
  );
}
