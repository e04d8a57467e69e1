import type { ReachChannel } from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { FileLookups, FilesService } from '../files/files.service.ts';

/** The loads module's answer about a load: its owner and booked carrier (loadLifecycle.stateForOffer). */
export interface ChatLoads {
  stateForOffer(db: DbOrTx, loadId: string, lock: 'none'): Promise<{ shipper_id: string; carrier_id: string | null; deleted: boolean } | null>;
}
/** The offers module's answer: has this carrier made an offer on the load (offersOfLoad.hasOfferBy). */
export interface ChatOffers {
  hasOfferBy(db: DbOrTx, loadId: string, carrierId: string): Promise<boolean>;
}
/** The tenders module's answer: was this carrier invited to a tender of the load (tendersOfLoad.invited). */
export interface ChatTenders {
  invited(db: DbOrTx, loadId: string, carrierId: string): Promise<boolean>;
}
/** The relations module's answer: blocks and contact settings (relations.reach). */
export interface ChatRelations {
  reach(channel: ReachChannel, ownerId: string, viewerId: string, counterpart: boolean): Promise<'ok' | 'blocked' | 'refused'>;
}

/** The real-time module's answer: is an account online now, and when was it last seen (docs/realtime.md "Presence"). */
export interface ChatPresence {
  of(accountId: string): Promise<{ online: boolean; lastSeenAt: string | null }>;
}

/** What the container passes to createChatService; the chat use cases pick from it. */
export interface ChatDeps {
  db: Db;
  loads: ChatLoads;
  offers: ChatOffers;
  tenders: ChatTenders;
  relations: ChatRelations;
  /** the files module: an attachment's bytes once this module has checked the viewer is a side */
  files: Pick<FilesService, 'openShared'> & Pick<FileLookups, 'ownedChatAttachment'>;
  /** presence of the other side on GET /chat/conversations/:id (none: shown offline, never seen) */
  presence?: ChatPresence;
}
