import { z } from 'zod';
import { ACCOUNT_TYPE, type AccountType } from '../constants.ts';
import { fileRef } from './fleet.ts';

/**
 * Business verification (issue 8; spec §2 profile approval, §4 dialogs, §6 "identity verification
 * is needed before posting"): documents a business uploads (PDF, JPG, PNG ≤ 5 MB through POST
 * /files with purpose business-document), then submits for review; an operator approves or
 * rejects with a reason (npm run admin), and the user re-uploads what was rejected.
 */
export const BUSINESS_DOCUMENT_TYPES = [
  'commercial_registration',
  'vat_certificate',
  'transport_licence',
  'carrier_liability_insurance',
  'insurance_certificate',
  'business_registration',
  'letterhead',
] as const;
export type BusinessDocumentType = (typeof BUSINESS_DOCUMENT_TYPES)[number];

/** What each account type must upload before it can submit (the rest are optional). */
export const REQUIRED_DOCUMENTS: Record<AccountType, BusinessDocumentType[]> = {
  [ACCOUNT_TYPE.shipper]: ['commercial_registration', 'vat_certificate'],
  [ACCOUNT_TYPE.carrier]: ['commercial_registration', 'transport_licence', 'carrier_liability_insurance'],
  [ACCOUNT_TYPE.broker]: ['commercial_registration', 'vat_certificate', 'transport_licence'],
};

/** One document's state; `not_uploaded` until a file is given. */
export const DOCUMENT_STATES = ['not_uploaded', 'submitted', 'approved', 'rejected'] as const;
/**
 * The whole verification (spec §2): documents not uploaded → submitted (uploading) → pending
 * approval (sent for review) → approved, or rejected with the reason and a re-upload.
 */
export const VERIFICATION_STATES = ['not_uploaded', 'submitted', 'pending_approval', 'approved', 'rejected'] as const;
export type VerificationState = (typeof VERIFICATION_STATES)[number];

/** PUT /profile-approval/documents/:type */
export const verificationDocumentBody = z.object({ fileId: z.uuid() });
export const documentTypeParams = z.object({ type: z.enum(BUSINESS_DOCUMENT_TYPES) });

export const verificationSchema = z.object({
  state: z.enum(VERIFICATION_STATES),
  /** The operator's reason, with state rejected. */
  reason: z.string().nullable(),
  submittedAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** True when every required document is uploaded and none waits for a re-upload. */
  canSubmit: z.boolean(),
  documents: z.array(
    z.object({
      type: z.enum(BUSINESS_DOCUMENT_TYPES),
      required: z.boolean(),
      state: z.enum(DOCUMENT_STATES),
      file: fileRef.extend({ name: z.string().nullable() }).nullable(),
      reason: z.string().nullable(),
      updatedAt: z.string().nullable(),
    }),
  ),
});
export type Verification = z.infer<typeof verificationSchema>;
