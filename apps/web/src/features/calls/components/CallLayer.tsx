import { ActionIcon, Box, Button, Group, Modal, Paper, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconArrowsMaximize,
  IconArrowsMinimize,
  IconMicrophone,
  IconMicrophoneOff,
  IconPhone,
  IconPhoneOff,
  IconVideo,
  IconVideoOff,
} from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { acceptCall, dismissCallNotice, leaveCall, maximiseCall, minimiseCall, toggleAudio, toggleVideo } from '../engine';
import { useCallState, type CallState } from '../store';
import { CallTimer } from './CallTimer';

/** A media element showing `stream` (srcObject cannot be set as a React prop). */
function Media({ stream, kind, muted, ...rest }: { stream: MediaStream | null; kind: 'audio' | 'video'; muted?: boolean } & Record<string, unknown>) {
  const ref = useRef<HTMLMediaElement | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (el && 'srcObject' in el && el.srcObject !== stream) el.srcObject = stream;
  }, [stream]);
  return kind === 'audio' ? (
    <audio ref={(el) => void (ref.current = el)} autoPlay muted={muted} {...rest} />
  ) : (
    <video ref={(el) => void (ref.current = el)} autoPlay playsInline muted={muted} {...rest} />
  );
}

/** "Calling…", "Connecting…" or the running timer. */
function CallStatus({ s }: { s: CallState }) {
  const { t } = useTranslation('calls');
  if (s.phase === 'outgoing') return <span data-testid="call-status">{t('calling')}</span>;
  if (s.startedAt && s.peerState === 'connected') return <CallTimer startedAt={s.startedAt} />;
  return <span data-testid="call-status">{t('connecting')}</span>;
}

function Controls({ s, compact }: { s: CallState; compact?: boolean }) {
  const { t } = useTranslation('calls');
  const size = compact ? 'lg' : 'xl';
  return (
    <Group gap="sm" justify="center" wrap="nowrap">
      <Tooltip label={s.localAudio ? t('mute') : t('unmute')}>
        <ActionIcon
          size={size}
          radius="xl"
          variant={s.localAudio ? 'default' : 'filled'}
          onClick={toggleAudio}
          aria-label={s.localAudio ? t('mute') : t('unmute')}
          aria-pressed={!s.localAudio}
          data-testid="call-mute"
          data-muted={!s.localAudio}
        >
          {s.localAudio ? <IconMicrophone size={20} /> : <IconMicrophoneOff size={20} />}
        </ActionIcon>
      </Tooltip>
      {s.type === 'VideoCall' && (
        <Tooltip label={s.localVideo ? t('cameraOff') : t('cameraOn')}>
          <ActionIcon
            size={size}
            radius="xl"
            variant={s.localVideo ? 'default' : 'filled'}
            onClick={toggleVideo}
            aria-label={s.localVideo ? t('cameraOff') : t('cameraOn')}
            aria-pressed={!s.localVideo}
            data-testid="call-camera"
          >
            {s.localVideo ? <IconVideo size={20} /> : <IconVideoOff size={20} />}
          </ActionIcon>
        </Tooltip>
      )}
      {compact ? (
        <Tooltip label={t('maximise')}>
          <ActionIcon size={size} radius="xl" variant="default" onClick={maximiseCall} aria-label={t('maximise')} data-testid="call-maximise">
            <IconArrowsMaximize size={20} />
          </ActionIcon>
        </Tooltip>
      ) : (
        <Tooltip label={t('minimise')}>
          <ActionIcon size={size} radius="xl" variant="default" onClick={minimiseCall} aria-label={t('minimise')} data-testid="call-minimise">
            <IconArrowsMinimize size={20} />
          </ActionIcon>
        </Tooltip>
      )}
      <Tooltip label={t('hangUp')}>
        <ActionIcon
          size={size}
          radius="xl"
          color="masarRed"
          variant="filled"
          onClick={() => void leaveCall()}
          aria-label={t('hangUp')}
          data-testid="call-hangup"
        >
          <IconPhoneOff size={20} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** The incoming call (spec §3 receiverDetails): who calls, audio or video, ringing; accept or decline. */
function IncomingCall({ s }: { s: CallState }) {
  const { t } = useTranslation('calls');
  const video = s.type === 'VideoCall';
  return (
    <Modal
      opened
      onClose={() => void leaveCall()}
      withCloseButton={false}
      centered
      size="sm"
      title={video ? t('incomingVideo') : t('incomingAudio')}
      data-testid="call-incoming"
      closeOnClickOutside={false}
    >
      <Stack align="center" gap="md">
        <Text fw={700} fz="lg" ta="center" data-testid="call-caller">
          <bdi>{s.receiverDetails?.callerName}</bdi>
        </Text>
        <Text c="dimmed" fz="sm">
          {t('aboutLoad')}
        </Text>
        <Group gap="md" justify="center" w="100%" grow>
          <Button color="masarRed" leftSection={<IconPhoneOff size={18} />} onClick={() => void leaveCall()} data-testid="call-decline">
            {t('decline')}
          </Button>
          <Button
            color="green"
            leftSection={video ? <IconVideo size={18} /> : <IconPhone size={18} />}
            onClick={() => void acceptCall()}
            data-testid="call-accept"
          >
            {t('accept')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** How long the words of a call's ending stay if nobody closes them. */
const ENDED_SHOWN_MS = 15_000;

/** The call window after a call that ended by no hang-up (issue 48): declined, busy, no answer, failed — and Close. */
function CallEnded({ ended }: { ended: NonNullable<CallState['ended']> }) {
  const { t } = useTranslation('calls');
  useEffect(() => {
    const id = setTimeout(dismissCallNotice, ENDED_SHOWN_MS);
    return () => clearTimeout(id);
  }, [ended]);
  return (
    <Modal opened onClose={dismissCallNotice} centered size="sm" title={ended.type === 'VideoCall' ? t('videoCall') : t('audioCall')}>
      <Stack align="center" gap="md" data-testid="call-window" data-phase="ended" data-reason={ended.reason}>
        <Text fw={700} fz="lg" ta="center">
          <bdi>{ended.name}</bdi>
        </Text>
        <Text ta="center" role="status" data-testid="call-ended-message">
          {t(`ended.${ended.reason}`, { name: ended.name })}
        </Text>
        <Button variant="default" onClick={dismissCallNotice} data-testid="call-ended-close">
          {t('close')}
        </Button>
      </Stack>
    </Modal>
  );
}

/**
 * Incoming-call dialog and the call window of this tab (issue 21 "Calls"): ringing, then
 * connecting → connected with a running timer, mute, camera on/off (video calls), minimise to a
 * bar under the header (the chat composer stays free) and maximise, hang up. Mounted by the app layout for signed-in users.
 */
export default function CallLayer() {
  const { t } = useTranslation('calls');
  const s = useCallState();
  if (s.phase === 'idle' && s.ended) return <CallEnded ended={s.ended} />;
  if (!s.isOpen || s.phase === 'idle') return null;
  if (s.phase === 'incoming') return <IncomingCall s={s} />;
  const video = s.type === 'VideoCall';
  const attrs = { 'data-testid': 'call-window', 'data-phase': s.phase, 'data-peer-state': s.peerState, 'data-connected': s.isConnected } as const;
  return (
    <>
      {/* the other side's voice, whichever way the window is shown */}
      <Media stream={s.remoteStream} kind="audio" data-testid="call-remote-audio" />
      {s.isMaximize ? (
        <Modal
          opened
          onClose={minimiseCall}
          centered
          size={video ? 'lg' : 'sm'}
          title={video ? t('videoCall') : t('audioCall')}
          closeButtonProps={{ 'aria-label': t('minimise') }}
        >
          <Stack align="center" gap="md" {...attrs}>
            <Text fw={700} fz="lg" ta="center">
              <bdi>{s.receiverDetails?.callerName}</bdi>
            </Text>
            <Text c="dimmed">
              <CallStatus s={s} />
            </Text>
            {video && (
              <Box pos="relative" w="100%" bg="dark.8" style={{ aspectRatio: '4 / 3', borderRadius: 8, overflow: 'hidden' }}>
                <Media
                  stream={s.remoteStream}
                  kind="video"
                  muted
                  aria-label={t('remoteVideo')}
                  style={{ inlineSize: '100%', blockSize: '100%', objectFit: 'cover' }}
                />
                <Box pos="absolute" style={{ insetBlockEnd: 8, insetInlineEnd: 8, inlineSize: '30%' }}>
                  <Media stream={s.localStream} kind="video" muted aria-label={t('localVideo')} style={{ inlineSize: '100%', borderRadius: 6 }} />
                </Box>
              </Box>
            )}
            <Controls s={s} />
          </Stack>
        </Modal>
      ) : (
        <Paper
          shadow="md"
          p="xs"
          withBorder
          role="region"
          aria-label={video ? t('videoCall') : t('audioCall')}
          pos="fixed"
          style={{ insetBlockStart: 72, insetInlineStart: 8, insetInlineEnd: 8, zIndex: 300, maxInlineSize: 480, marginInline: 'auto' }}
          {...attrs}
          data-minimised
        >
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Stack gap={0} style={{ minInlineSize: 0 }}>
              <Text fw={600} truncate>
                <bdi>{s.receiverDetails?.callerName}</bdi>
              </Text>
              <Text fz="xs" c="dimmed">
                <CallStatus s={s} />
              </Text>
            </Stack>
            <Controls s={s} compact />
          </Group>
        </Paper>
      )}
    </>
  );
}
