import { Text, Timeline } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { STOP_TYPE, type Load } from '@masar/shared';
import { asLang } from './format';
import { DateText } from './Money';

/** The stops of a load in order: P (green) pickups and D (red) drops with date and address. */
export function StopTimeline({ stops }: { stops: Load['stops'] }) {
  const { t, i18n } = useTranslation('loads');
  const ar = asLang(i18n.language) === 'ar';
  return (
    <Timeline bulletSize={26} lineWidth={2} active={stops.length - 1} color="gray">
      {stops.map((s) => {
        const pickup = s.stopType === STOP_TYPE.pickup;
        return (
          <Timeline.Item
            key={s.id}
            color={pickup ? 'masar' : 'masarRed'}
            bullet={
              <Text size="xs" fw={700} c="white">
                {pickup ? t('stop.p') : t('stop.d')}
              </Text>
            }
            title={
              <Text fw={600}>
                {ar ? s.cityNameAr : s.cityNameEn}
                <Text component="span" c="dimmed" size="sm" ms={8}>
                  {pickup ? t('stop.pickup') : t('stop.drop')}
                </Text>
              </Text>
            }
          >
            <Text size="sm">
              <DateText value={s.date} />
            </Text>
            {s.address && (
              <Text size="sm" c="dimmed">
                {s.address}
              </Text>
            )}
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
