import { createHash, randomBytes } from 'node:crypto';
import type { ApiKey, ApiKeyCreated, ApiKeyScope } from '@masar/shared';
import { apiKeyCreateBody } from '@masar/shared';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client.ts';
import { lockAccountCap } from '../../lib/locks.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import * as repo from './apikeys.repository.ts';

/** At most this many live keys per account. */
export const MAX_LIVE_KEYS = 20;
/** Keys look like `msk_` + 43 base64url characters (32 random bytes). */
const KEY_PREFIX = 'msk_';

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

const toApiKey = (r: repo.ApiKeyRow): ApiKey => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  scopes: r.scopes as ApiKeyScope[],
  ratePerMinute: r.ratePerMinute,
  createdAt: r.createdAt.toISOString(),
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  useCount: r.useCount,
  revokedAt: r.revokedAt?.toISOString() ?? null,
});

/** Who an API key acts for, and what it may do. */
export interface KeyIdentity {
  keyId: string;
  ownerId: string;
  scopes: ApiKeyScope[];
  ratePerMinute: number;
  /**
   * Who made the key (the acting person's own user id; null for keys made before migration 0095).
   * When that is a team member, not the owner, the key acts under the member's current role and
   * stops when they leave (plugins/auth.ts).
   */
  createdBy: string | null;
}

/**
 * API keys for integrators (issue 11): a user creates, names, scopes and revokes keys; the key is
 * shown once and kept as its SHA-256; a request carrying it (header X-API-Key) acts as its owner
 * within its scopes (plugins/auth.ts), and every use is counted.
 */
/** `stillActing`: in the create's transaction, the acting team member is still one (team.service assertStillActing). */
export function createApiKeysService(db: Db, opts: { stillActing?: (tx: DbOrTx, user: CurrentUser) => Promise<void> } = {}) {
  return {
    async list(user: CurrentUser): Promise<ApiKey[]> {
      return (await repo.listKeys(db, user.id)).map(toApiKey);
    },
    async create(user: CurrentUser, body: z.output<typeof apiKeyCreateBody>): Promise<ApiKeyCreated> {
      const key = KEY_PREFIX + randomBytes(32).toString('base64url');
      // count and insert under the owner's cap lock: 50 parallel creations end at MAX_LIVE_KEYS (issue 22)
      const row = await db.transaction(async (tx) => {
        await lockAccountCap(tx, 'apikeys', user.id);
        await opts.stillActing?.(tx, user);
        if ((await repo.countLiveKeys(tx, user.id)) >= MAX_LIVE_KEYS) throw new AppError('LIMIT_REACHED');
        return repo.insertKey(tx, {
          id: newId(),
          ownerId: user.id,
          name: body.name,
          prefix: key.slice(0, 10),
          keyHash: hashKey(key),
          scopes: [...new Set(body.scopes)],
          ratePerMinute: body.ratePerMinute,
          createdBy: user.actorId ?? user.id,
        });
      });
      return { ...toApiKey(row), key };
    },
    async revoke(user: CurrentUser, id: string): Promise<void> {
      if (!(await repo.revokeKey(db, user.id, id))) throw new AppError('NOT_FOUND');
    },
    /** The identity of a presented key, recording its use; null for an unknown or revoked key. */
    async authenticate(key: string): Promise<KeyIdentity | null> {
      if (!key.startsWith(KEY_PREFIX) || key.length > 100) return null;
      const r = await repo.useKey(db, hashKey(key));
      return r ? { keyId: r.id, ownerId: r.ownerId, scopes: r.scopes as ApiKeyScope[], ratePerMinute: r.ratePerMinute, createdBy: r.createdBy } : null;
    },
  };
}

/**
 * Revoke, inside the caller's transaction, the owner's live keys that `userId` made: a team
 * member removed or leaving (issue 22; modules/team). Returns how many.
 */
export async function revokeKeysMadeBy(tx: DbOrTx, ownerId: string, userId: string): Promise<number> {
  return repo.revokeKeysMadeBy(tx, ownerId, userId);
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
