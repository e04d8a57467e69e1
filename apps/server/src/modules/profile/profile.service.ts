import { z } from 'zod';
import {
  ADDRESS_BOOK_MAX,
  type BusinessProfile,
  type BusinessProfileInput,
  type ContactInfo,
  type ContactInfoInput,
  type SavedAddress,
  type SavedAddressInput,
  type SavedAddressList,
} from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import type { FileLookups } from '../files/files.service.ts';
import * as repo from './profile.repository.ts';

const LOGO_MIMES = new Set(['image/png', 'image/jpeg']);

/** A field error localized by the error handler (a ZodError thrown by a service → 400 VALIDATION_FAILED). */
const fieldError = (path: string, message: string) => new z.ZodError([{ code: 'custom', path: [path], message, input: undefined }]);

function toAddress(r: repo.SavedAddressRow): SavedAddress {
  return {
    id: r.id,
    label: r.label,
    cityId: r.cityId,
    districtId: r.districtId == null ? null : Number(r.districtId),
    address: r.address,
    addressDetails: r.addressDetails,
    lat: r.lat,
    lng: r.lng,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The contact info a user saved to share (modules/relations: the counterpart contact card); undefined before the first save. */
export const contactSharesOf = (db: DbOrTx, userId: string) => repo.findContactShare(db, userId);

/**
 * The account area (issue 8; spec §2 "Account", §3 "Business profile", §5): business profile,
 * contact info to share with the other party of a booking, and the address book the post form
 * picks stops from. Everything here belongs to the signed-in user; another user's address is 404.
 */
export function createProfileService(deps: { db: Db; files: Pick<FileLookups, 'fileRefs' | 'ownedFiles'> }) {
  const { db } = deps;

  /** The city's lat/lng; VALIDATION_FAILED (cityId / districtId) when the city is unknown or the district is not in it. */
  async function place(tx: DbOrTx, cityId: number, districtId: number | null | undefined) {
    const p = await repo.cityPoint(tx, cityId, districtId);
    if (!p) throw fieldError('cityId', 'v.cityInvalid');
    if (!p.districtOk) throw fieldError('districtId', 'v.districtCity');
    return p;
  }

  async function businessProfile(user: CurrentUser): Promise<BusinessProfile> {
    const r = await repo.findBusinessProfile(db, user.id);
    const logo = r?.logoFileId ? (await deps.files.fileRefs(db, [r.logoFileId])).get(r.logoFileId) : undefined;
    return {
      companyName: r?.companyName ?? user.companyName,
      crNumber: r?.crNumber ?? null,
      vatNumber: r?.vatNumber ?? null,
      fax: r?.fax ?? null,
      website: r?.website ?? null,
      logo: logo ?? null,
      cityId: r?.cityId ?? null,
      districtId: r?.districtId == null ? null : Number(r.districtId),
      addressDetails: r?.addressDetails ?? null,
      updatedAt: r?.updatedAt.toISOString() ?? null,
    };
  }

  return {
    /** GET /account/business-profile: my business profile; before the first save, the sign-up company name and nulls. */
    businessProfile,

    /**
     * PUT /account/business-profile: replace my business profile (absent optional fields are
     * cleared). The logo must be my file and PNG/JPG (v.logoImage); the district must be in the
     * city (v.districtCity); a district or address needs the city (v.cityInvalid).
     */
    async putBusinessProfile(user: CurrentUser, body: BusinessProfileInput): Promise<BusinessProfile> {
      await db.transaction(async (tx) => {
        if (body.logoFileId) {
          const refs = await deps.files.ownedFiles(tx, user.id, [body.logoFileId]).catch(() => {
            throw fieldError('logoFileId', 'v.logoImage');
          });
          if (!LOGO_MIMES.has(refs.get(body.logoFileId)!.mime)) throw fieldError('logoFileId', 'v.logoImage');
        }
        if (body.cityId != null) await place(tx, body.cityId, body.districtId);
        else if (body.districtId != null) throw fieldError('cityId', 'v.cityInvalid');
        await repo.upsertBusinessProfile(tx, {
          userId: user.id,
          companyName: body.companyName,
          crNumber: body.crNumber ?? null,
          vatNumber: body.vatNumber ?? null,
          fax: body.fax ?? null,
          website: body.website ?? null,
          logoFileId: body.logoFileId ?? null,
          cityId: body.cityId ?? null,
          districtId: body.cityId != null ? (body.districtId ?? null) : null,
          addressDetails: body.addressDetails ?? null,
        });
      });
      return businessProfile(user);
    },

    /** GET /account/contact-info: each channel's value and share flag (nothing shared until saved). */
    async contactInfo(user: CurrentUser): Promise<ContactInfo> {
      const r = await repo.findContactShare(db, user.id);
      return {
        phone: { value: r?.phone ?? null, share: r?.phoneShare ?? false },
        email: { value: r?.email ?? null, share: r?.emailShare ?? false },
        whatsapp: { value: r?.whatsapp ?? null, share: r?.whatsappShare ?? false },
        officePhone: { value: r?.officePhone ?? null, share: r?.officePhoneShare ?? false },
      };
    },

    /** PUT /account/contact-info: a channel can only be shared with a value (v.required on `<channel>.value`). */
    async putContactInfo(user: CurrentUser, body: ContactInfoInput): Promise<ContactInfo> {
      for (const k of ['phone', 'email', 'whatsapp', 'officePhone'] as const)
        if (body[k].share && !body[k].value) throw new z.ZodError([{ code: 'custom', path: [k, 'value'], message: 'v.required', input: undefined }]);
      await repo.upsertContactShare(db, {
        userId: user.id,
        phone: body.phone.value ?? null,
        phoneShare: body.phone.share,
        email: body.email.value ?? null,
        emailShare: body.email.share,
        whatsapp: body.whatsapp.value ?? null,
        whatsappShare: body.whatsapp.share,
        officePhone: body.officePhone.value ?? null,
        officePhoneShare: body.officePhone.share,
      });
      return this.contactInfo(user);
    },

    /** GET /account/addresses: all my saved addresses (≤ ADDRESS_BOOK_MAX), labels A→Z. */
    async addresses(user: CurrentUser): Promise<SavedAddressList> {
      const rows = await repo.listAddresses(db, user.id, ADDRESS_BOOK_MAX);
      return { items: rows.map(toAddress), total: rows.length, max: ADDRESS_BOOK_MAX };
    },

    /** GET /account/addresses/:id; NOT_FOUND when it is not mine. */
    async address(user: CurrentUser, id: string): Promise<SavedAddress> {
      const r = await repo.findAddress(db, user.id, id);
      if (!r) throw new AppError('NOT_FOUND');
      return toAddress(r);
    },

    /** POST /account/addresses: save an address; lat/lng from the city. LIMIT_REACHED at ADDRESS_BOOK_MAX. */
    async addAddress(user: CurrentUser, body: SavedAddressInput): Promise<SavedAddress> {
      return db.transaction(async (tx) => {
        await repo.lockAddressBook(tx, user.id);
        if ((await repo.countAddresses(tx, user.id)) >= ADDRESS_BOOK_MAX) throw new AppError('LIMIT_REACHED');
        const p = await place(tx, body.cityId, body.districtId);
        const row = await repo.insertAddress(tx, {
          id: newId(),
          userId: user.id,
          label: body.label,
          cityId: body.cityId,
          districtId: body.districtId ?? null,
          address: body.address || null,
          addressDetails: body.addressDetails ?? null,
          lat: p.lat,
          lng: p.lng,
        });
        return toAddress(row);
      });
    },

    /** PUT /account/addresses/:id: replace a saved address of mine; NOT_FOUND when it is not mine. */
    async updateAddress(user: CurrentUser, id: string, body: SavedAddressInput): Promise<SavedAddress> {
      return db.transaction(async (tx) => {
        if (!(await repo.findAddress(tx, user.id, id))) throw new AppError('NOT_FOUND');
        const p = await place(tx, body.cityId, body.districtId);
        const row = await repo.updateAddress(tx, user.id, id, {
          label: body.label,
          cityId: body.cityId,
          districtId: body.districtId ?? null,
          address: body.address || null,
          addressDetails: body.addressDetails ?? null,
          lat: p.lat,
          lng: p.lng,
        });
        if (!row) throw new AppError('NOT_FOUND');
        return toAddress(row);
      });
    },

    /** DELETE /account/addresses/:id; NOT_FOUND when it is not mine. */
    async deleteAddress(user: CurrentUser, id: string): Promise<void> {
      if (!(await repo.deleteAddress(db, user.id, id))) throw new AppError('NOT_FOUND');
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
