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

/** "P Riyadh → D Jeddah" in the user's language, arrow mirrored in RTL. */
export function Lane({ lane, size = 'md', extraStops = 0 }: { lane: LaneNames; size?: MantineSize; extraStops?: number }) {
  const { t, i18n } = useTranslation('loads');
  const ar = asLang(i18n.language) === 'ar';
  return (
    <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
      <StopBadge stopType={STOP_TYPE.pickup} size="sm" />
      <Text fw={600} size={size} truncate>
        {ar ? lane.fromAr : lane.fromEn}
      </Text>
      <DirArrow />
      <StopBadge stopType={STOP_TYPE.drop} size="sm" />
      <Text fw={600} size={size} truncate>
        {ar ? lane.toAr : lane.toEn}
      </Text>
      {extraStops > 0 && (
        <Badge variant="light" color="gray" size="sm">
          {t('stop.more', { count: extraStops })}
        </Badge>
      )}
    </Group>
  );
}
