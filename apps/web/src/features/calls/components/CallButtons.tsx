import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconPhone, IconVideo } from '@tabler/icons-react';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CallType } from '@masar/shared';
import { startCall } from '../engine';
import { getCallState, useCallState } from '../store';

/** Codes after which a button stays off, with the reason as its tooltip (the other side's setting, a block). */
const REFUSALS = new Set(['CALL_NOT_ALLOWED', 'USER_BLOCKED']);

/**
 * The audio and video call buttons of a chat thread's header (issue 21 "Calls"; a slot of the chat
 * panel). A click asks for the microphone (and camera) and rings the other side. When the other
 * side's audio or video setting (or a block) refuses, that button turns off with the reason.
 */
export default function CallButtons(props: { conversationId: string; loadId: string; counterpartId: string; counterpartName: string }) {
  const { t } = useTranslation('calls');
  const { phase } = useCallState();
  const [refused, setRefused] = useState<Partial<Record<CallType, string>>>({});
  // the microphone (and camera), then POST /meetings/v1/meeting: both buttons stay off while it runs
  const call = useMutation({
    mutationFn: (type: CallType) => startCall({ ...props, type }),
    onSuccess: (code, type) => {
      if (code && REFUSALS.has(code)) setRefused((r) => ({ ...r, [type]: getCallState().notice ?? t('refused') }));
    },
  });
  const button = (type: CallType) => {
    const reason = refused[type];
    const label = type === 'AudioCall' ? t('startAudio') : t('startVideo');
    return (
      <Tooltip label={reason ?? label} withArrow>
        <ActionIcon
          variant="subtle"
          size="lg"
          onClick={() => call.mutate(type)}
          disabled={Boolean(reason) || phase !== 'idle' || call.isPending}
          aria-label={reason ? `${label}: ${reason}` : label}
          data-testid={type === 'AudioCall' ? 'call-audio' : 'call-video'}
        >
          {type === 'AudioCall' ? <IconPhone size={18} /> : <IconVideo size={18} />}
        </ActionIcon>
      </Tooltip>
    );
  };
  return (
    <Group gap={2} wrap="nowrap" ms="auto">
      {button('AudioCall')}
      {button('VideoCall')}
    </Group>
  );
}
