import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { userTopic, type CallMessage, type CallSignalMessage, type RealtimeMessage } from '@masar/shared';
import { loadNamespaces } from '../../i18n';
import { loadMqtt, startRealtime } from '../../lib/realtime';
import { PROFILE_QUERY_KEY, tokenManager, useSession } from '../../lib/session';

/** What a message of each aggregate may have changed on screen: query key prefixes (only mounted queries refetch). */
const LOAD_KEYS = [['load'], ['myLoads'], ['offers'], ['tenders'], ['load-tracking'], ['assignment'], ['godsview'], ['dashboard']] as const;
const ACCOUNT_KEYS = [PROFILE_QUERY_KEY, ['account'], ['billing'], ['fleet'], ['trucks'], ['dashboard']] as const;
/** A chat conversation (issue 21): a new message or a read receipt — the panel, the thread and the header count. */
const CONVERSATION_KEYS = [['chat']] as const;

/** Every key prefix a profile-topic message may refresh, once each. */
const RESYNC_KEYS = [['notifications'], ...LOAD_KEYS, ...ACCOUNT_KEYS, ...CONVERSATION_KEYS].filter(
  (k, i, all) => all.findIndex((o) => o.join() === k.join()) === i,
);

/**
 * Re-read what the profile topic covers (issue 48), after every connect, tab wake or `online`:
 * the bell, the load screens, the account screens and the conversations — the mounted queries only
 * (invalidateQueries refetches active queries; the others are marked stale for their next mount).
 * Not every query of the app: the board, the rates and the like hear nothing on this channel.
 */
export function resyncRealtime(qc: QueryClient): void {
  for (const key of RESYNC_KEYS) void qc.invalidateQueries({ queryKey: [...key] });
}

/** Re-read what a real-time hint names (docs/realtime.md): the bell always, then by aggregate. */
export function applyRealtimeMessage(qc: QueryClient, m: RealtimeMessage): void {
  void qc.invalidateQueries({ queryKey: ['notifications'] });
  const keys = m.aggregateType === 'load' ? LOAD_KEYS : m.aggregateType === 'conversation' ? CONVERSATION_KEYS : ACCOUNT_KEYS;
  for (const key of keys) void qc.invalidateQueries({ queryKey: [...key] });
}

/** The calls feature, loaded with the first call message (its own chunk); messages keep their order. */
let calls: Promise<typeof import('../../features/calls')> | null = null;
function toCalls(m: CallMessage | CallSignalMessage) {
  calls ??= Promise.all([import('../../features/calls'), loadNamespaces(['calls'])]).then(([mod]) => mod);
  void calls.then((c) => (m.kind === 'call' ? c.onCallMessage(m) : c.onCallSignal(m))).catch(() => undefined);
}

// the mqtt chunk starts downloading as soon as this one runs, before the profile and the token (issue 48)
void loadMqtt().catch(() => undefined);

/**
 * The signed-in tab's real-time connection (issue 21; spec §4 server-pushed updates): account
 * events refresh the profile, which opens the approved dialog, the status banner, or — answered
 * ACCOUNT_SUSPENDED / ACCOUNT_DELETED — the blocked dialog and logout. Renders nothing.
 */
export function RealtimeBridge() {
  const { uid, profile, refreshProfile } = useSession();
  const qc = useQueryClient();
  // the profile's mqttTopic is the user's topic (spec §3): no need to wait for the profile to connect
  const topic = profile?.mqttTopic ?? (uid ? userTopic(uid) : undefined);
  useEffect(() => {
    if (!uid || !topic) return;
    return startRealtime({
      uid,
      topic,
      token: () => tokenManager.getAccessToken(),
      onMessage: (m) => applyRealtimeMessage(qc, m),
      // calls (issue 21): the spec's call events and the WebRTC signalling
      onCall: toCalls,
      // after every connect (the first too), a tab wake or `online`: re-read what the topic covers
      onResync: () => resyncRealtime(qc),
      // an expired token: the profile read goes through the API client, which refreshes it
      onAuthRefused: refreshProfile,
    });
  }, [uid, topic, qc, refreshProfile]);
  return null;
}
