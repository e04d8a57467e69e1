import { Badge, Group, Text, useDirection, type MantineSize } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { STOP_TYPE, type Load } from '@masar/shared';
import { asLang } from './format';

/** An arrow pointing "forward" in reading direction: mirrored in RTL. */
export function DirArrow({ size = 16 }: { size?: number }) {
  const { dir } = useDirection();
  return <IconArrowRight size={size} style={{ transform: dir === 'rtl' ? 'scaleX(-1)' : undefined, flexShrink: 0 }} aria-hidden />;
}

/** The P (pickup, green) / D (drop, red) letter badge of a stop (spec §3). */
export function StopBadge({ stopType, size = 'sm' }: { stopType: number; size?: MantineSize }) {
  const { t } = useTranslation('loads');
  const pickup = stopType === STOP_TYPE.pickup;
  return (
    <Badge circle size={size} color={pickup ? 'masar' : 'masarRed'} title={pickup ? t('stop.pickup') : t('stop.drop')}>
      {pickup ? t('stop.p') : t('stop.d')}
    </Badge>
  );
}

export interface LaneNames {
  fromEn: string;
  fromAr: string;
  toEn: string;
  toAr: string;
}

/** Lane names from a load: first pickup → last drop. */
export function laneOf(load: Pick<Load, 'stops'>): LaneNames {
  const first = load.stops[0];
  const last = load.stops[load.stops.length - 1];
  return { fromEn: first?.cityNameEn ?? '', fromAr: first?.cityNameAr ?? '', toEn: last?.cityNameEn ?? '', toAr: last?.cityNameAr ?? '' };
}

/**
 * "P Riyadh → D Jeddah" in the user's language, arrow mirrored in RTL. A long city name wraps
 * (onto a second line, the drop under the pickup) instead of being cut off.
 */
export function Lane({ lane, size = 'md', extraStops = 0 }: { lane: LaneNames; size?: MantineSize; extraStops?: number }) {
  const { t, i18n } = useTranslation('loads');
  const ar = asLang(i18n.language) === 'ar';
  const stop = (type: number, name: string, arrow?: boolean) => (
    <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
      <StopBadge stopType={type} size="sm" />
      <Text fw={600} size={size} lh={1.3} style={{ overflowWrap: 'anywhere' }}>
        {name}
      </Text>
      {arrow && <DirArrow />}
    </Group>
  );
  return (
    <Group gap={6} style={{ minWidth: 0, rowGap: 2 }}>
      {stop(STOP_TYPE.pickup, ar ? lane.fromAr : lane.fromEn, true)}
      {stop(STOP_TYPE.drop, ar ? lane.toAr : lane.toEn)}
      {extraStops > 0 && (
        <Badge variant="light" color="gray" size="sm">
          {t('stop.more', { count: extraStops })}
        </Badge>
      )}
    </Group>
  );
}
