import {
  ACTIVE_LOAD_STATUSES,
  PROFILE_STATUS,
  RELATIONS_MAX,
  type AccountSettings,
  type AccountSettingsPatch,
  type BlockInput,
  type ContactAudience,
  type ContactCard,
  type ReachChannel,
  type ContactLink,
  type RelationEntry,
  type RelationKind,
  type RelationListQuery,
  type RelationListResponse,
  type RelationStatus,
} from '@masar/shared';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { Db, DbOrTx } from '../../db/client.ts';
import { afterTimestampCursor, encodeCursor } from '../../lib/cursor.ts';
import { AppError } from '../../lib/errors.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import * as repo from './relations.repository.ts';

/** No row yet: every channel reaches only the other parties of my bookings. */
export const DEFAULT_SETTINGS: AccountSettings = { chat: 'counterparts', audio: 'counterparts', video: 'counterparts' };

/**
 * What other modules may ask of the relations module (owned here; injected by the container):
 * the users hidden from a viewer by a block either way, and whether two users are blocked.
 */
export const relationsOfUser = {
  hidden: (db: DbOrTx, viewerId: string) => repo.hiddenIds(db, viewerId),
  blockedBetween: (db: DbOrTx, a: string, b: string) => repo.blockedBetween(db, a, b),
};

/** The offers module's side of a block (it owns offers): close the pair's pending offers, keeping their history. */
export interface OffersOfUsers {
  closePendingBetween(tx: DbOrTx, blockerId: string, otherId: string): Promise<number>;
}
/** The loads module's answer about a load (parties, status). */
export interface LoadParties {
  stateForOffer(tx: DbOrTx, loadId: string, lock: 'none'): Promise<{ shipper_id: string; carrier_id: string | null; status: string; deleted: boolean } | null>;
}
/** The profile module's answer: the contact info a user shares with the other party of a booking. */
export type ContactSharesOf = (
  db: DbOrTx,
  userId: string,
) => Promise<
  | {
      phone: string | null;
      phoneShare: boolean;
      email: string | null;
      emailShare: boolean;
      whatsapp: string | null;
      whatsappShare: boolean;
      officePhone: string | null;
      officePhoneShare: boolean;
    }
  | undefined
>;

function toEntry(r: repo.RelationRow): RelationEntry {
  return {
    userId: r.user_id,
    companyName: r.company_name,
    accountType: Number(r.account_type),
    verified: Number(r.status) === PROFILE_STATUS.approved,
    reason: r.reason ?? null,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** Opaque keyset cursor (lib/cursor.ts): the last row's key (PostgreSQL text, microseconds) and id. */
const CURSOR_TAG = 'relations';
const cursorOf = (r: repo.RelationRow) => encodeCursor(CURSOR_TAG, [r.k], r.user_id);
/** The cursor back; a forged or foreign one is a 400 VALIDATION_FAILED on `cursor`. */
const afterCursor = (c: string | undefined) => afterTimestampCursor(c, CURSOR_TAG);

/** wa.me wants the international number as digits only (phones are saved as E.164). */
const digits = (v: string) => v.replace(/[^\d]/g, '');
/** A tel: URI (RFC 3966) of a number saved as E.164 or as a Saudi local number (office phones). */
const telHref = (v: string) => parsePhoneNumberFromString(v, 'SA')?.getURI() ?? `tel:${digits(v)}`;

/**
 * Favourites, blocked users, contact settings and the counterpart contact card (issue 8; spec §2
 * "Account", §6 "Users may block or favourite shippers and brokers; settings control who may
 * contact by video, audio or chat", §7 /account/favourite, /account/blocked).
 * A block hides the pair from each other both ways: the board, load details, bids and answers
 * (USER_BLOCKED), the contact card. Blocking closes the pair's pending offers and removes their
 * favourites of each other, in one transaction.
 */
export function createRelationsService(deps: { db: Db; offers: OffersOfUsers; loads: LoadParties; contactShares: ContactSharesOf }) {
  const { db, offers, loads, contactShares } = deps;

  /** RELATION_SELF (400) for myself; NOT_FOUND (404) for no such (or a deleted) user. */
  async function target(user: CurrentUser, otherId: string) {
    if (otherId === user.id) throw new AppError('RELATION_SELF');
    if ((await repo.companyOf(db, otherId)) === undefined) throw new AppError('NOT_FOUND');
  }

  async function settings(userId: string): Promise<AccountSettings> {
    return (await repo.findSettings(db, userId)) ?? DEFAULT_SETTINGS;
  }

  /** May `viewerId` reach `ownerId` given the owner's audience for a channel? `counterpart`: they share a booking. */
  async function allows(audience: ContactAudience, ownerId: string, viewerId: string, counterpart: boolean): Promise<boolean> {
    if (audience === 'everyone') return true;
    if (audience === 'counterparts') return counterpart;
    if (audience === 'favourites') return repo.isFavourite(db, ownerId, viewerId);
    return false;
  }

  return {
    /**
     * May `viewerId` reach `ownerId` on `channel` (chat, audio, video)? `blocked` when either
     * blocked the other; `refused` when the owner's contact settings leave the viewer out
     * (`counterpart`: the two share a load — a booking, an offer or a tender invite); else `ok`.
     * The chat module asks this when a conversation is opened and on every message.
     */
    async reach(channel: ReachChannel, ownerId: string, viewerId: string, counterpart: boolean): Promise<'ok' | 'blocked' | 'refused'> {
      if (await repo.blockedBetween(db, ownerId, viewerId)) return 'blocked';
      const s = await settings(ownerId);
      return (await allows(s[channel], ownerId, viewerId, counterpart)) ? 'ok' : 'refused';
    },

    /**
     * GET /account/favourite, /account/blocked: my list, newest first, keyset-paged (`cursor` =
     * the previous page's nextCursor; VALIDATION_FAILED for a forged one), with each company's name,
     * account type and approval, and my count against RELATIONS_MAX.
     */
    async list(user: CurrentUser, kind: RelationKind, q: RelationListQuery): Promise<RelationListResponse> {
      const after = afterCursor(q.cursor);
      const [rows, total] = await Promise.all([repo.listPage(db, kind, user.id, q.limit + 1, after), repo.countList(db, kind, user.id)]);
      const page = rows.slice(0, q.limit);
      return { items: page.map(toEntry), nextCursor: rows.length > q.limit ? cursorOf(page[page.length - 1]) : null, total, max: RELATIONS_MAX };
    },

    /**
     * POST /account/favourite: star a user (idempotent: already there → the same entry).
     * RELATION_SELF, NOT_FOUND, USER_BLOCKED (I blocked them: unblock first), LIMIT_REACHED
     * (409) at RELATIONS_MAX.
     */
    async addFavourite(user: CurrentUser, otherId: string): Promise<RelationEntry> {
      await target(user, otherId);
      await db.transaction(async (tx) => {
        await repo.lockList(tx, 'favourite', user.id);
        if (await repo.isBlocked(tx, user.id, otherId)) throw new AppError('USER_BLOCKED');
        if (await repo.isFavourite(tx, user.id, otherId)) return;
        if ((await repo.countList(tx, 'favourite', user.id)) >= RELATIONS_MAX) throw new AppError('LIMIT_REACHED');
        await repo.insertFavourite(tx, user.id, otherId);
      });
      return toEntry((await repo.entry(db, 'favourite', user.id, otherId))!);
    },

    /**
     * POST /account/blocked: block a user (idempotent). In one transaction: the block, the pair's
     * favourites of each other removed, and their pending offers on each other's loads closed
     * (offer history kept). RELATION_SELF, NOT_FOUND, LIMIT_REACHED (409) at RELATIONS_MAX.
     */
    async block(user: CurrentUser, body: BlockInput): Promise<RelationEntry> {
      const otherId = body.userId;
      await target(user, otherId);
      await db.transaction(async (tx) => {
        await repo.lockList(tx, 'blocked', user.id);
        if (await repo.isBlocked(tx, user.id, otherId)) return;
        if ((await repo.countList(tx, 'blocked', user.id)) >= RELATIONS_MAX) throw new AppError('LIMIT_REACHED');
        await repo.insertBlock(tx, user.id, otherId, body.reason || null);
        await repo.deleteFavouritesBetween(tx, user.id, otherId);
        await offers.closePendingBetween(tx, user.id, otherId);
      });
      return toEntry((await repo.entry(db, 'blocked', user.id, otherId))!);
    },

    /** DELETE /account/favourite/:userId, /account/blocked/:userId: idempotent (nothing to remove is fine). */
    async remove(user: CurrentUser, kind: RelationKind, otherId: string): Promise<void> {
      await repo.deleteEntry(db, kind, user.id, otherId);
    },

    /** GET /account/relations/:userId: whether I favourited / blocked that user (the Favourite / Block menu). */
    async status(user: CurrentUser, otherId: string): Promise<RelationStatus> {
      const [favourite, blocked] = await Promise.all([repo.isFavourite(db, user.id, otherId), repo.isBlocked(db, user.id, otherId)]);
      return { userId: otherId, favourite, blocked };
    },

    /** GET /account/settings: who may reach me by chat, audio, video (default `counterparts` each). */
    settings: (user: CurrentUser) => settings(user.id),

    /** PATCH /account/settings: change some channels; the answer is all three. */
    async patchSettings(user: CurrentUser, patch: AccountSettingsPatch): Promise<AccountSettings> {
      await repo.patchSettings(db, user.id, patch);
      return settings(user.id);
    },

    /**
     * GET /loads/:id/contact: for the shipper or the booked carrier of a booked load (unassigned,
     * assigned, pending Bayan or completed), the OTHER party and the ways it lets me reach it:
     * its shared contact info (PUT /account/contact-info) on the channels its settings allow me —
     * chat: WhatsApp (https://wa.me/…) and e-mail (mailto:); audio: phone and office phone
     * (tel:); video: a WhatsApp link. Being parties of this booking makes us counterparts.
     * NOT_FOUND for anyone else or a load not booked; USER_BLOCKED (403) when either blocked the other.
     */
    async contactCard(user: CurrentUser, loadId: string): Promise<ContactCard> {
      const load = await loads.stateForOffer(db, loadId, 'none');
      const booked =
        load && !load.deleted && load.carrier_id && ((ACTIVE_LOAD_STATUSES as readonly string[]).includes(load.status) || load.status === 'completed');
      if (!load || !booked || (user.id !== load.shipper_id && user.id !== load.carrier_id)) throw new AppError('NOT_FOUND');
      const role = user.id === load.shipper_id ? 'carrier' : 'shipper';
      const otherId = role === 'carrier' ? load.carrier_id! : load.shipper_id;
      if (await repo.blockedBetween(db, user.id, otherId)) throw new AppError('USER_BLOCKED');
      const [companyName, s, share] = await Promise.all([repo.companyOf(db, otherId), settings(otherId), contactShares(db, otherId)]);
      const channels = {} as Record<ReachChannel, boolean>;
      for (const c of ['chat', 'audio', 'video'] as const) channels[c] = await allows(s[c], otherId, user.id, true);
      const links: ContactLink[] = [];
      if (share) {
        if (channels.chat && share.whatsappShare && share.whatsapp)
          links.push({ kind: 'whatsapp', channel: 'chat', value: share.whatsapp, href: `https://wa.me/${digits(share.whatsapp)}` });
        if (channels.chat && share.emailShare && share.email)
          links.push({ kind: 'email', channel: 'chat', value: share.email, href: `mailto:${encodeURIComponent(share.email).replace('%40', '@')}` });
        if (channels.audio && share.phoneShare && share.phone) links.push({ kind: 'phone', channel: 'audio', value: share.phone, href: telHref(share.phone) });
        if (channels.audio && share.officePhoneShare && share.officePhone)
          links.push({ kind: 'officePhone', channel: 'audio', value: share.officePhone, href: telHref(share.officePhone) });
        if (channels.video && share.whatsappShare && share.whatsapp)
          links.push({ kind: 'whatsappVideo', channel: 'video', value: share.whatsapp, href: `https://wa.me/${digits(share.whatsapp)}` });
      }
      return { loadId, role, userId: otherId, companyName: companyName ?? '', channels, links };
    },

    /**
     * Whom a carrier's driver may call about a booked load (issue 23, the driver's page): the
     * shipper's company and the phones (phone, office phone) it shares with the other party of a
     * booking, when its audio setting lets the carrier call — the rules of `contactCard` with the
     * carrier as the viewer; null when either blocked the other or nothing is shared. And the
     * carrier's own shared phone (its dispatcher line) with its company name. Null load or a load
     * of another carrier → both null.
     */
    async tripContacts(
      carrierId: string,
      loadId: string,
    ): Promise<{ shipper: { name: string; phones: string[] } | null; carrier: { name: string; phone: string } | null }> {
      const load = await loads.stateForOffer(db, loadId, 'none');
      if (!load || load.carrier_id !== carrierId) return { shipper: null, carrier: null };
      const [own, ownName] = await Promise.all([contactShares(db, carrierId), repo.companyOf(db, carrierId)]);
      const ownPhone = own?.phoneShare && own.phone ? own.phone : own?.officePhoneShare && own.officePhone ? own.officePhone : null;
      const carrier = ownPhone ? { name: ownName ?? '', phone: ownPhone } : null;
      if (await repo.blockedBetween(db, carrierId, load.shipper_id)) return { shipper: null, carrier };
      const [name, s, share] = await Promise.all([repo.companyOf(db, load.shipper_id), settings(load.shipper_id), contactShares(db, load.shipper_id)]);
      if (!share || !(await allows(s.audio, load.shipper_id, carrierId, true))) return { shipper: null, carrier };
      const phones = [share.phoneShare ? share.phone : null, share.officePhoneShare ? share.officePhone : null].filter((p): p is string => !!p);
      return { shipper: phones.length ? { name: name ?? '', phones } : null, carrier };
    },
  };
}

export type RelationsService = ReturnType<typeof createRelationsService>;
