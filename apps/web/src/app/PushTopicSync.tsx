import { useEffect } from 'react';
import { beforeSignOut, useSession } from '../lib/session';
import { KEYS } from '../lib/storage';

/** The web push client, loaded only when this browser has push on (a stored push id). */
const push = () => import('../features/notifications/push');
const pushOnHere = () => typeof localStorage !== 'undefined' && localStorage.getItem(KEYS.fcmToken) !== null;

/**
 * Spec §4 push topic sync (issue 21): after sign-in, and whenever the profile's topic changes
 * (another account, a team joined or left), a browser with push on subscribes to the new topic
 * and drops the old; before logout it unsubscribes. Renders nothing, and loads the push code
 * only in a browser where push was turned on (settings), so the home bundle does not carry it.
 */
export function PushTopicSync() {
  const { profile } = useSession();
  const topic = profile?.fcmTopic;
  useEffect(() => {
    if (!topic || !pushOnHere()) return;
    void push()
      .then((m) => m.syncPushTopics(topic))
      .catch((err: unknown) => console.warn('push topic sync failed', err));
  }, [topic]);
  useEffect(() => {
    const hook = async () => {
      if (pushOnHere()) await (await push()).unsubscribeBeforeSignOut();
    };
    beforeSignOut.add(hook);
    return () => {
      beforeSignOut.delete(hook);
    };
  }, []);
  return null;
}
