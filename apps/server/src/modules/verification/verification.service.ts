import {
  BUSINESS_DOCUMENT_TYPES,
  PROFILE_STATUS,
  REQUIRED_DOCUMENTS,
  type AccountType,
  type BusinessDocumentType,
  type Verification,
  type VerificationState,
} from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { publish } from '../events/events.service.ts';
import { AppError } from '../../lib/errors.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { actingUser } from '../auth/auth.types.ts';
import type { FileLookups } from '../files/files.service.ts';
import * as repo from './verification.repository.ts';

/**
 * Business verification (issue 8; spec §2 /profile-approval, §4, §6): the account uploads its
 * documents, sends them for review, and the operator's decision (npm run admin -- approve |
 * reject --reason …) is recorded here next to the account status the auth module keeps.
 */
export function createVerificationService(deps: { db: Db; files: Pick<FileLookups, 'fileRefs' | 'ownedFiles'> }) {
  const { db } = deps;

  async function status(userId: string, accountType: number, accountApproved = false): Promise<Verification> {
    const [docs, review] = await Promise.all([repo.documentsOf(db, userId), repo.reviewOf(db, userId)]);
    const files = await deps.files.fileRefs(
      db,
      docs.map((d) => d.fileId),
    );
    const required = new Set<BusinessDocumentType>(REQUIRED_DOCUMENTS[accountType as AccountType] ?? []);
    const byType = new Map(docs.map((d) => [d.type, d]));
    const decided = review?.decidedAt && (!review.submittedAt || review.decidedAt >= review.submittedAt);
    // an account the operator approved before it sent documents (the demo accounts, older ones) is verified
    const state: VerificationState =
      (decided && review.decision === 'approved') || (accountApproved && !review?.submittedAt)
        ? 'approved'
        : decided && review.decision === 'rejected'
          ? 'rejected'
          : review?.submittedAt
            ? 'pending_approval'
            : docs.length
              ? 'submitted'
              : 'not_uploaded';
    const ready = [...required].every((t) => byType.has(t)) && docs.every((d) => d.state !== 'rejected');
    return {
      state,
      reason: state === 'rejected' ? (review?.reason ?? null) : null,
      submittedAt: review?.submittedAt?.toISOString() ?? null,
      decidedAt: review?.decidedAt?.toISOString() ?? null,
      canSubmit: ready && state !== 'pending_approval' && state !== 'approved',
      documents: BUSINESS_DOCUMENT_TYPES.map((type) => {
        const d = byType.get(type);
        const f = d ? files.get(d.fileId) : undefined;
        return {
          type,
          required: required.has(type),
          state: d ? d.state : 'not_uploaded',
          file: f ? { ...f, name: null } : null,
          reason: d?.reason ?? null,
          updatedAt: d?.updatedAt.toISOString() ?? null,
        };
      }),
    };
  }

  return {
    status: (user: CurrentUser) => status(user.id, user.accountType, user.status === PROFILE_STATUS.approved),

    /** Give (or replace) one document: a file of mine uploaded with purpose business-document. */
    async putDocument(user: CurrentUser, type: BusinessDocumentType, fileId: string): Promise<Verification> {
      await db.transaction(async (tx) => {
        await deps.files.ownedFiles(tx, user.id, [fileId]);
        await repo.putDocument(tx, user.id, type, fileId);
      });
      return status(user.id, user.accountType, user.status === PROFILE_STATUS.approved);
    },

    /** Send the documents for review: every required one, none waiting for a re-upload (DOCUMENTS_INCOMPLETE). */
    async submit(user: CurrentUser, now = new Date()): Promise<Verification> {
      const current = await status(user.id, user.accountType, user.status === PROFILE_STATUS.approved);
      if (!current.canSubmit) throw new AppError('DOCUMENTS_INCOMPLETE');
      await db.transaction(async (tx) => {
        await repo.markSubmitted(tx, user.id, now);
        await publish(tx, {
          type: 'account.documents_submitted',
          aggregateType: 'account',
          aggregateId: user.id,
          actorId: actingUser(user),
          data: { accountId: user.id },
        });
      });
      return status(user.id, user.accountType, user.status === PROFILE_STATUS.approved);
    },

    /** The operator's decision (admin CLI, with the account status change). */
    async decide(userId: string, decision: 'approved' | 'rejected', reason: string | null, now = new Date()): Promise<void> {
      await db.transaction((tx) => repo.decide(tx, userId, decision, reason, now));
    },
    /** The same inside the caller's transaction (the admin CLI's status change). */
    decideIn: (tx: DbOrTx, userId: string, decision: 'approved' | 'rejected', reason: string | null, now = new Date()) =>
      repo.decide(tx, userId, decision, reason, now),

    /**
     * The operator rejects one document with its own reason, inside the caller's transaction (the
     * admin CLI's status change to rejected). Errors: NOT_FOUND when the account has no such
     * document (the caller's transaction then rolls back the status change too).
     */
    async rejectDocumentIn(tx: DbOrTx, userId: string, type: BusinessDocumentType, reason: string, now = new Date()): Promise<void> {
      if (!(await repo.rejectDocument(tx, userId, type, reason, now))) throw new AppError('NOT_FOUND');
    },

    /** The state of any account (operator tools). */
    statusOf: status,
  };
}

export type VerificationService = ReturnType<typeof createVerificationService>;
