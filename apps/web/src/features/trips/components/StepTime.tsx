import { Badge, Stack, Text } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LATE_ARRIVAL_MS } from '@masar/shared';
import { RIYADH_TZ, formatDate } from '../../../components/format';
import { digitSystem } from '../../../lib/digits';
import { dateTimeFormat } from '../../../lib/intl';

/** Whether a write arrived late: recorded on the device more than LATE_ARRIVAL_MS before the server received it (sent after a time offline). */
export const arrivedLate = (e: { at: string; recordedAt: string | null }) =>
  e.recordedAt !== null && Date.parse(e.at) - Date.parse(e.recordedAt) > LATE_ARRIVAL_MS;

/** The time of day in Riyadh ("14:05" / "١٤:٠٥"), with the day when it is not the day of `sameDayAs`. */
function clockTime(iso: string, lang: 'en' | 'ar', sameDayAs?: string) {
  const day = (s: string) => dateTimeFormat('en-CA', { timeZone: RIYADH_TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(s));
  const otherDay = sameDayAs !== undefined && day(iso) !== day(sameDayAs);
  return dateTimeFormat(lang === 'ar' ? 'ar-SA-u-ca-gregory' : 'en-GB', {
    timeZone: RIYADH_TZ,
    numberingSystem: digitSystem(lang),
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(otherDay ? { day: 'numeric', month: 'short' } : {}),
  }).format(new Date(iso));
}

/**
 * When a trip step or proof happened, as the shipper and carrier read it (issue 49): the device's
 * time (when the driver tapped; the server's when the device sent none) and, when it reached the
 * server more than LATE_ARRIVAL_MS later (recorded offline, sent on reconnect), a mark with both:
 * "Recorded 14:05 offline, received 16:40". Riyadh time, the reader's digits.
 */
export function StepTime({ at, recordedAt, lang }: { at: string; recordedAt: string | null; lang: 'en' | 'ar' }) {
  const { t } = useTranslation('trips');
  const late = arrivedLate({ at, recordedAt });
  return (
    <Stack gap={2} data-testid="step-time" data-late={late ? 'true' : undefined}>
      <Text size="sm">{formatDate(recordedAt ?? at, lang)}</Text>
      {late && (
        <Badge color="gray" variant="light" leftSection={<IconCloudOff size={12} />} style={{ textTransform: 'none' }} data-testid="step-late">
          {t('track.lateArrival', { recorded: clockTime(recordedAt!, lang), received: clockTime(at, lang, recordedAt!) })}
        </Badge>
      )}
    </Stack>
  );
}
