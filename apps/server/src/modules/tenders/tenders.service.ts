import type { z } from 'zod';
import type { createTenderBody, TenderTab, tenderAnswerBody } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import type { TendersDeps } from './deps.ts';
import * as repo from './tenders.repository.ts';
import { answerTender } from './use-cases/answer-tender.ts';
import { awardTender } from './use-cases/award-tender.ts';
import { cancelTender } from './use-cases/cancel-tender.ts';
import { createTender } from './use-cases/create-tender.ts';
import { getTender } from './use-cases/get-tender.ts';
import { listTenders } from './use-cases/list-tenders.ts';
import { processDueTenders } from './use-cases/process-due-tenders.ts';

export type { TenderBlocks, TenderBooking, TenderLoads, TenderVendors, TendersDeps } from './deps.ts';

/** What other modules may ask of the tenders module (owned here; injected by the container): was a carrier invited to a tender of a load (chat parties, issue 21). */
export const tendersOfLoad = {
  invited: (db: DbOrTx, loadId: string, carrierId: string) => repo.invitedOnLoad(db, loadId, carrierId),
};

/**
 * Tendering (issue 19 "Tendering"; spec §3 offer/bid, §4 bidding). A shipper or broker tenders
 * one of its own open loads to chosen carriers (accounts, or its vendors' accounts) with a
 * deadline and an optional target rate, to all at once (broadcast) or one at a time for
 * `stepMinutes` each (waterfall). Invited carriers accept (at the target rate, else the load's
 * price), counter (an amount) or decline; in waterfall only the carrier whose turn it is, and a
 * decline or counter passes the turn to the next one at once (an accept stops the waterfall:
 * the owner has an answer at its rate). The owner awards one accepted or countered answer: the
 * load is booked through the offers module's booking path (offer.accepted, load.booked — the
 * loads lifecycle) at that amount, and every other invite is closed (tender.invite_closed).
 * Every write locks the tender row FOR UPDATE first and changes statuses with conditional
 * updates (lifecycle.ts), so racing awards and answers book at most once. The tender job
 * (processDue, every minute) closes tenders past their deadline (optionally posting the load to
 * the board) and passes expired waterfall turns on. Each in its use case (use-cases/*.ts);
 * what they share in tenders.shared.ts.
 */
export function createTendersService(deps: TendersDeps) {
  return {
    /** The tender as `user` may see it (use-cases/get-tender.ts). */
    get: (user: CurrentUser, id: string, via?: DbOrTx) => getTender(deps, user, id, via),
    /** POST /tenders (use-cases/create-tender.ts). */
    create: (user: CurrentUser, body: z.output<typeof createTenderBody>) => createTender(deps, user, body),
    /** GET /tenders?tab=sent|received (use-cases/list-tenders.ts). */
    list: (user: CurrentUser, q: { tab: TenderTab; limit: number; cursor?: string }) => listTenders(deps, user, q),
    /** POST /tenders/:id/answer (use-cases/answer-tender.ts). */
    answer: (user: CurrentUser, id: string, body: z.output<typeof tenderAnswerBody>) => answerTender(deps, user, id, body),
    /** POST /tenders/:id/award (use-cases/award-tender.ts). */
    award: (user: CurrentUser, id: string, inviteId: string) => awardTender(deps, user, id, inviteId),
    /** POST /tenders/:id/cancel (use-cases/cancel-tender.ts). */
    cancel: (user: CurrentUser, id: string) => cancelTender(deps, user, id),
    /** The tender job, every minute (use-cases/process-due-tenders.ts). */
    processDue: (batch?: number) => processDueTenders(deps, batch),
  };
}

export type TendersService = ReturnType<typeof createTendersService>;
