import type { z } from 'zod';
import { ACCOUNT_TYPE, PROFILE_STATUS, type Vendor, type vendorInput, type vendorUpdate } from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { AppError, dbErrorCode } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { FileLookups } from '../files/files.service.ts';
import * as repo from './vendors.repository.ts';
import type { SignedLinks } from '../../lib/signed-links.ts';

type VendorIn = z.output<typeof vendorInput>;
type VendorUpd = z.output<typeof vendorUpdate>;

/**
 * My vendors (spec §2, §3 Vendor, §4, §5; issue 3). Every account type has a "my vendors"
 * (contact) section (spec §2: shippers, brokers and carriers each have a fleet, contact and
 * bayan section); a vendor row belongs to its owner only (another owner's id answers 404).
 * E-mail and phone are unique per owner among live vendors (a rejected request does not block).
 * States: verified (added by the owner, or an approved request), request_submitted (sent from
 * the share link), pending_approval (the owner opened it for review), not_verified (rejected).
 */
export const VENDOR_ROLES = [ACCOUNT_TYPE.shipper, ACCOUNT_TYPE.carrier, ACCOUNT_TYPE.broker];
const INVITE_DAYS = 30;

export function toVendor(r: repo.VendorRow): Vendor {
  return {
    id: r.id,
    status: r.status,
    userType: r.userType as Vendor['userType'],
    companyName: r.companyName,
    vendorName: r.vendorName,
    phone: r.phone,
    email: r.email,
    jobTitle: r.jobTitle,
    officeLocations: r.officeLocations,
    notes: r.notes,
    crNumber: r.crNumber,
    tlNumber: r.tlNumber,
    vatNumber: r.vatNumber,
    paymentTerms: r.paymentTerms,
    shipmentTypes: r.shipmentTypes,
    regions: r.regions,
    preferredLanguages: r.preferredLanguages,
    preferredContactMethod: r.preferredContactMethod,
    numberOfTrucks: r.numberOfTrucks,
    numberOfTrailers: r.numberOfTrailers,
    fleetSize: r.fleetSize,
    fleetTypes: r.fleetTypes,
    equipmentTypes: r.equipmentTypes,
    serviceArea: r.serviceArea,
    insurance: r.insurance,
    rateAgreement: r.rateAgreement,
    pastExperience: r.pastExperience,
    paymentHistory: r.paymentHistory,
    customsClearance: r.customsClearance,
    documentFileIds: r.documentFileIds,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** A vendor row from a validated input. */
export function vendorRow(ownerId: string, b: VendorIn, status: repo.VendorStatus = 'verified', origin = 'owner'): repo.NewVendor {
  return {
    id: newId(),
    ownerId,
    status,
    origin,
    userType: b.userType,
    companyName: b.companyName,
    vendorName: b.vendorName,
    phone: b.phone,
    email: b.email,
    jobTitle: b.jobTitle ?? null,
    officeLocations: b.officeLocations,
    notes: b.notes ?? null,
    crNumber: b.crNumber ?? null,
    tlNumber: b.tlNumber ?? null,
    vatNumber: b.vatNumber ?? null,
    paymentTerms: b.paymentTerms ?? null,
    shipmentTypes: b.shipmentTypes,
    regions: b.regions,
    preferredLanguages: b.preferredLanguages,
    preferredContactMethod: b.preferredContactMethod ?? null,
    numberOfTrucks: b.numberOfTrucks ?? null,
    numberOfTrailers: b.numberOfTrailers ?? null,
    fleetSize: b.fleetSize ?? null,
    fleetTypes: b.fleetTypes,
    equipmentTypes: b.equipmentTypes,
    serviceArea: b.serviceArea ?? null,
    insurance: b.insurance ?? null,
    rateAgreement: b.rateAgreement ?? null,
    pastExperience: b.pastExperience ?? null,
    paymentHistory: b.paymentHistory ?? null,
    customsClearance: b.customsClearance,
    documentFileIds: b.documentFileIds,
  };
}

function uniqueError(e: unknown): AppError | null {
  if (dbErrorCode(e) !== '23505') return null;
  const text = JSON.stringify({
    m: (e as Error).message,
    c: (e as { cause?: { message?: string; constraint?: string } }).cause?.message,
    k: (e as { cause?: { constraint?: string } }).cause?.constraint,
  });
  if (text.includes('vendors_owner_phone')) return new AppError('VENDOR_PHONE_EXISTS');
  return new AppError('VENDOR_EMAIL_EXISTS');
}
async function mapUnique<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw uniqueError(e) ?? e;
  }
}

async function checkContact(tx: DbOrTx, ownerId: string, email?: string, phone?: string, exceptId?: string) {
  const taken = await repo.contactTaken(tx, ownerId, email, phone, exceptId);
  if (taken.email) throw new AppError('VENDOR_EMAIL_EXISTS');
  if (taken.phone) throw new AppError('VENDOR_PHONE_EXISTS');
}

/**
 * What other modules may ask of my vendors (issue 7 vendor shipments): the registered account
 * (carrier or broker user id) each vendor of `ownerId` maps to, by the vendor's phone or e-mail
 * (see repo.vendorAccounts). Injected into the loads module by the container.
 */
export const vendorAccountsOf = {
  accounts: (tx: DbOrTx, ownerId: string, vendorIds: string[]) => repo.vendorAccounts(tx, ownerId, vendorIds),
  /** Is `userId` the account of one of `ownerId`'s verified vendors (Book Now limited to trusted carriers; issue 19)? */
  isVerifiedVendor: (db: DbOrTx, ownerId: string, userId: string) => repo.isVerifiedVendorAccount(db, ownerId, userId),
};

export function createVendorsService(deps: { db: Db; links: SignedLinks; files: Pick<FileLookups, 'ownedFiles'> }) {
  const { db } = deps;
  async function must(tx: DbOrTx, user: CurrentUser, id: string, forUpdate = false) {
    const v = await repo.getVendor(tx, user.id, id, forUpdate);
    if (!v) throw new AppError('NOT_FOUND');
    return v;
  }
  /** The inviting owner of a vendor link (lib/signed-links.ts, purpose 'vendor-invite'); INVALID_INVITE otherwise. */
  async function readInvite(token: string): Promise<{ ownerId: string; expiresAt: string }> {
    const r = await deps.links.check('vendor-invite', token);
    if (!r.ok) throw new AppError('INVALID_INVITE');
    return { ownerId: r.link.subject, expiresAt: r.link.expiresAt };
  }

  const svc = {
    async get(user: CurrentUser, id: string) {
      return toVendor(await must(db, user, id));
    },
    async list(user: CurrentUser, q: { search?: string; status?: repo.VendorStatus; userType?: string; limit: number; skip: number }, requestsOnly = false) {
      const statuses: repo.VendorStatus[] | undefined = q.status
        ? [q.status]
        : requestsOnly
          ? ['request_submitted', 'pending_approval', 'not_verified']
          : undefined;
      const { items, total } = await repo.listVendors(db, user.id, { ...q, statuses }, q.limit, q.skip);
      return { items: items.map(toVendor), total };
    },
    async create(user: CurrentUser, b: VendorIn) {
      const row = vendorRow(user.id, b);
      // the id is returned by the transaction: a crash-recovered retry replays it (Idempotency-Key journal)
      const id = await mapUnique(() =>
        db.transaction(async (tx) => {
          await deps.files.ownedFiles(tx, user.id, b.documentFileIds);
          await checkContact(tx, user.id, b.email, b.phone);
          await repo.insertVendors(tx, [row]);
          return row.id;
        }),
      );
      return svc.get(user, id);
    },
    async update(user: CurrentUser, id: string, b: VendorUpd) {
      await mapUnique(() =>
        db.transaction(async (tx) => {
          await must(tx, user, id, true);
          if (b.documentFileIds) await deps.files.ownedFiles(tx, user.id, b.documentFileIds);
          await checkContact(tx, user.id, b.email, b.phone, id);
          const patch: Partial<repo.NewVendor> = {};
          for (const [k, v] of Object.entries(b)) if (v !== undefined) (patch as Record<string, unknown>)[k] = v;
          await repo.updateVendor(tx, id, patch);
        }),
      );
      return svc.get(user, id);
    },
    /** Soft delete. A vendor still supplying a live vehicle cannot go: VENDOR_DELETE_FAILED. */
    async remove(user: CurrentUser, id: string) {
      await db.transaction(async (tx) => {
        await must(tx, user, id, true);
        if (await repo.vendorInUse(tx, id)) throw new AppError('VENDOR_DELETE_FAILED');
        await repo.updateVendor(tx, id, { deletedAt: new Date() });
      });
    },
    /** Share vendor link: a signed compact invite token (30 days) for the public /vendor page. */
    async shareLink(user: CurrentUser) {
      const { token, expiresAt } = await deps.links.sign('vendor-invite', user.id, INVITE_DAYS * 86_400);
      return { url: `/vendor?invite=${token}`, token, expiresAt };
    },
    /** Public: who invites (company name) — the sign-up page shows it. */
    async inviteInfo(token: string) {
      const { ownerId, expiresAt } = await readInvite(token);
      const o = await repo.ownerInfo(db, ownerId);
      if (!o || o.status === PROFILE_STATUS.deleted || o.status === PROFILE_STATUS.suspended) throw new AppError('INVALID_INVITE');
      return { companyName: o.companyName, accountType: o.accountType, expiresAt };
    },
    /** Public: a vendor sends a sign-up request through the link → status request_submitted. */
    async submitRequest(token: string, b: VendorIn) {
      const { ownerId } = await readInvite(token);
      const o = await repo.ownerInfo(db, ownerId);
      if (!o || o.status === PROFILE_STATUS.deleted || o.status === PROFILE_STATUS.suspended) throw new AppError('INVALID_INVITE');
      // files need an account: a public request carries none
      // the answer comes out of the transaction: a same-key retry after a crash replays it (issue 22)
      return mapUnique(() =>
        db.transaction(async (tx) => {
          const row = vendorRow(ownerId, { ...b, documentFileIds: [] }, 'request_submitted', 'invite');
          await checkContact(tx, ownerId, b.email, b.phone);
          await repo.insertVendors(tx, [row]);
          return { id: row.id, status: 'request_submitted' as const };
        }),
      );
    },
    /** Owner acts on a request: review → pending_approval, approve → verified, reject → not_verified. */
    async act(user: CurrentUser, id: string, action: 'review' | 'approve' | 'reject') {
      await mapUnique(() =>
        db.transaction(async (tx) => {
          const v = await must(tx, user, id, true);
          const open = v.status === 'request_submitted' || v.status === 'pending_approval';
          if (!open || (action === 'review' && v.status !== 'request_submitted')) throw new AppError('VENDOR_REQUEST_CLOSED');
          if (action === 'approve') await checkContact(tx, user.id, v.email, v.phone, id);
          await repo.updateVendor(tx, id, { status: action === 'approve' ? 'verified' : action === 'reject' ? 'not_verified' : 'pending_approval' });
        }),
      );
      return svc.get(user, id);
    },
    /** CSV import: insert validated rows in one transaction (all or nothing). */
    /** Insert imported vendors in one transaction (`outer`: as a savepoint of the caller's). */
    async bulkInsert(user: CurrentUser, rows: VendorIn[], outer?: DbOrTx) {
      await mapUnique(() =>
        (outer ?? db).transaction(async (tx) => {
          await repo.insertVendors(
            tx,
            rows.map((b) => vendorRow(user.id, { ...b, documentFileIds: [] }, 'verified', 'csv')),
          );
        }),
      );
    },
    async all(user: CurrentUser) {
      return (await repo.allVendors(db, user.id)).map(toVendor);
    },
  };
  return svc;
}
export type VendorsService = ReturnType<typeof createVendorsService>;
