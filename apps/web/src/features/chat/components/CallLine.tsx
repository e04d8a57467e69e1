import { Group, Text } from '@mantine/core';
import { IconPhone, IconPhoneOff, IconPhoneX, IconVideo } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ChatCallLine } from '@masar/shared';
import { formatCallDuration, formatDate, type Lang } from '../../../components/format';

/**
 * What a call's line says to its reader (issue 48; docs/calls.md "The line in the
 * conversation"): missed, declined or ended with its length (mm:ss in the reader's digits), told
 * from the reader's side — `mine` means I called ("Audio call, no answer" to the caller, "Missed
 * audio call" to the called side).
 */
export function callLineText(call: ChatCallLine, mine: boolean, t: TFunction<'chat'>, lang: string): string {
  const key = `callLine.${call.type === 'VideoCall' ? 'video' : 'audio'}`;
  if (call.outcome === 'ended') return t(`${key}.ended`, { duration: formatCallDuration(call.durationSeconds ?? 0, lang) });
  return t(`${key}.${call.outcome}${mine ? 'Out' : 'In'}`);
}

/** A call's line in the thread: centred, with its icon and time, not a bubble of either side. */
export function CallLine({ call, mine, createdAt, lang }: { call: ChatCallLine; mine: boolean; createdAt: string; lang: Lang }) {
  const { t } = useTranslation('chat');
  const Icon = call.outcome === 'missed' ? IconPhoneX : call.outcome === 'declined' ? IconPhoneOff : call.type === 'VideoCall' ? IconVideo : IconPhone;
  const color = call.outcome === 'ended' ? 'dimmed' : 'red';
  return (
    <Group
      gap={6}
      justify="center"
      wrap="nowrap"
      py={4}
      style={{ alignSelf: 'center' }}
      data-testid="chat-call-line"
      data-outcome={call.outcome}
      data-mine={mine ? '1' : '0'}
    >
      <Icon size={16} color={`var(--mantine-color-${color === 'red' ? 'red-6' : 'dimmed'})`} aria-hidden />
      <Text fz="sm" c={color}>
        {callLineText(call, mine, t, lang)}
      </Text>
      <Text fz="xs" c="dimmed">
        {formatDate(createdAt, lang)}
      </Text>
    </Group>
  );
}
