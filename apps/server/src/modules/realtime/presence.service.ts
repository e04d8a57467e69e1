import type { Db } from '../../db/client.ts';
import { lastSeenOf, touchLastSeen } from './presence.repository.ts';

/**
 * Stored presence (issue 21; docs/realtime.md "Presence"): an account's last-seen time on the
 * real-time channel, the truth every instance shares. The broker writes it (an account's last
 * connection closing; at most once a minute while connected) and reads it to answer a follow;
 * the chat module reads it for GET /chat/conversations/:id.
 */
export function createPresenceService(deps: { db: Db }) {
  return {
    /** `last_seen_at` by account id; an account never seen is absent. */
    lastSeen: (accountIds: string[]) => lastSeenOf(deps.db, [...new Set(accountIds)]),
    /** Record the accounts as seen now (one statement); the times stored, by account. */
    touch: (accountIds: string[]) => touchLastSeen(deps.db, [...new Set(accountIds)]),
  };
}
export type PresenceService = ReturnType<typeof createPresenceService>;
