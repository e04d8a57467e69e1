import { Alert, Stack, Switch, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { masar, unwrap } from '../../../lib/api';
import { PROFILE_QUERY_KEY } from '../../../lib/session';
import { notifyError, notifySuccess } from '../../../components/notify';
import { disablePush, enablePush, pushState, type PushState } from '../push/push';

/**
 * "Push notifications in this browser" (issue 21): the switch that asks the browser's permission
 * — only when the user turns it on, never on load — and subscribes this browser to the account's
 * topic (profile.fcmTopic); off unsubscribes it. Which categories push is the table's Push column.
 */
export function PushSwitch() {
  const { t } = useTranslation('notifications');
  // the session's profile query (same key): its fcmTopic is the account this browser follows
  const profile = useQuery({ queryKey: PROFILE_QUERY_KEY, queryFn: () => unwrap(masar.GET('/api/v1/accountDetails')), staleTime: 60_000 });
  const topic = profile.data?.fcmTopic;
  const [state, setState] = useState<PushState | null>(null);
  const [note, setNote] = useState<'denied' | 'error' | null>(null);
  useEffect(() => {
    let live = true;
    void pushState().then((s) => live && setState(s));
    return () => {
      live = false;
    };
  }, []);
  const toggle = useMutation({
    mutationFn: async (on: boolean) => {
      if (!topic) return 'error' as const;
      if (on) return enablePush(topic);
      await disablePush(topic);
      return 'off' as const;
    },
    onSuccess: (r) => {
      setNote(r === 'denied' || r === 'error' ? r : null);
      if (r === 'on') notifySuccess(t('push.enabled'));
      if (r === 'off') notifySuccess(t('push.disabled'));
      setState(r === 'on' || r === 'off' || r === 'unsupported' ? r : r === 'denied' ? 'denied' : 'off');
    },
    onError: (err) => {
      setNote('error');
      notifyError(err);
    },
  });

  if (state === null) return null;
  return (
    <Stack gap={4} mb="md" data-testid="push-switch">
      <Switch
        label={t('push.label')}
        description={t('push.hint')}
        checked={state === 'on'}
        disabled={state === 'unsupported' || state === 'denied' || !topic || toggle.isPending}
        onChange={(e) => toggle.mutate(e.currentTarget.checked)}
      />
      {state === 'unsupported' && (
        <Text c="dimmed" fz="sm">
          {t('push.unsupported')}
        </Text>
      )}
      {(state === 'denied' || note === 'denied') && (
        <Alert color="yellow" variant="light" p="xs">
          {t('push.denied')}
        </Alert>
      )}
      {note === 'error' && state !== 'denied' && (
        <Alert color="masarRed" variant="light" p="xs">
          {t('push.error')}
        </Alert>
      )}
    </Stack>
  );
}
