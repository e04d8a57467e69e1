import { PROFILE_STATUS } from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { publish } from '../events/events.service.ts';
import { newId } from '../../lib/ids.ts';
import { hashPassword } from '../../lib/password.ts';
import * as repo from './auth.repository.ts';

/** Operator actions on an account (spec §1: the admin tool is outside the product; `npm run admin`). */
export const ADMIN_ACTIONS = ['approve', 'reject', 'suspend', 'delete'] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

const ACTION_EVENT = { approve: 'account.approved', reject: 'account.rejected', suspend: 'account.suspended', delete: 'account.deleted' } as const;
const STATUS_NAME: Record<number, string> = Object.fromEntries(Object.entries(PROFILE_STATUS).map(([k, v]) => [v, k]));

const TARGET_STATUS: Record<AdminAction, number> = {
  approve: PROFILE_STATUS.approved,
  reject: PROFILE_STATUS.rejected,
  suspend: PROFILE_STATUS.suspended,
  delete: PROFILE_STATUS.deleted,
};

export interface StatusChange {
  id: string;
  phone: string;
  name: string;
  companyName: string;
  accountType: number;
  /** Profile status before and after (PROFILE_STATUS). */
  from: number;
  to: number;
  sessionsRevoked: number;
}

/** What the account admin asks of the billing module, which owns subscriptions (injected by the container). */
export interface PlansOfAccount {
  grant(tx: DbOrTx, userId: string, plan: { code: string; name: string }): Promise<void>;
}

/**
 * Account approval for the operator CLI, through the auth module's repository.
 * setStatus: in one transaction, approve → 2 (on the FIRST approval isFirstTimeApproved and
 * isFirstTimeLoginAfterApproved are set so the client shows the approved dialog once, spec §4),
 * reject → 5, suspend → 3, delete → 4 with every session revoked. Null for an unknown phone.
 */
export function createAccountAdmin(db: Db, plans: PlansOfAccount) {
  return {
    /**
     * `opts.reason` goes into the account.rejected event; `opts.also` runs in the same
     * transaction (the verification decision). Publishes account.approved / rejected /
     * suspended / deleted with `status: {from, to}` (profile status names) in it too.
     */
    async setStatus(
      action: AdminAction,
      phone: string,
      now = new Date(),
      opts: { reason?: string | null; also?: (tx: DbOrTx, userId: string) => Promise<void> } = {},
    ): Promise<StatusChange | null> {
      return db.transaction(async (tx) => {
        const u = await repo.lockUserByPhone(tx, phone);
        if (!u) return null;
        const to = TARGET_STATUS[action];
        const patch: Partial<repo.NewUserRow> = { status: to, updatedAt: now };
        // the approval dialog is for the FIRST approval; reactivating a suspended account is not one
        if (action === 'approve' && !u.isFirstTimeApproved) Object.assign(patch, { isFirstTimeApproved: true, isFirstTimeLoginAfterApproved: true });
        await repo.updateUser(tx, u.id, patch);
        const sessionsRevoked = action === 'delete' ? await repo.revokeUserSessions(tx, u.id, now) : 0;
        await opts.also?.(tx, u.id);
        await publish(tx, {
          type: ACTION_EVENT[action],
          aggregateType: 'account',
          aggregateId: u.id,
          actorId: null,
          data: {
            accountId: u.id,
            status: { from: STATUS_NAME[u.status] ?? String(u.status), to: STATUS_NAME[to] },
            ...(action === 'reject' || action === 'suspend' ? { reason: opts.reason ?? null } : {}),
          },
        });
        return {
          id: u.id,
          phone,
          name: `${u.firstName} ${u.lastName}`,
          companyName: u.companyName,
          accountType: u.accountType,
          from: u.status,
          to,
          sessionsRevoked,
        };
      });
    },

    /**
     * The id of the account of `a.phone`, creating it approved with an active plan when missing
     * (the demo accounts, README "Demo accounts"). One transaction per new account.
     */
    async ensureApprovedAccount(
      a: Pick<repo.NewUserRow, 'phone' | 'accountType' | 'firstName' | 'lastName' | 'companyName' | 'email'>,
      password: string,
      plan: { code: string; name: string },
    ): Promise<string> {
      const existing = await repo.findUserByPhone(db, a.phone);
      if (existing) return existing.id;
      const id = newId();
      const passwordHash = await hashPassword(password);
      await db.transaction(async (tx) => {
        await repo.insertUser(tx, {
          id,
          ...a,
          passwordHash,
          status: PROFILE_STATUS.approved,
          isFirstTimeApproved: true,
          isFirstTimeLoginAfterApproved: false,
        });
        await plans.grant(tx, id, plan);
      });
      return id;
    },

    /** Accounts waiting for approval (status 1), oldest first. */
    listPending: () => repo.listUsersByStatus(db, PROFILE_STATUS.pending),
  };
}

export type AccountAdmin = ReturnType<typeof createAccountAdmin>;
