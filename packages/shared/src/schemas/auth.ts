import { z } from 'zod';
import { ACCOUNT_TYPES } from '../constants.ts';
import { teamActingSchema } from './team.ts';
import { emailSchema, loginPasswordSchema, nameSchema, otpSchema, passwordSchema, phoneSchema } from '../validation.ts';

/** Device fields of the guest sign-in body (spec §3). deviceType/platform is 3 (web). */
export const guestSignInBody = z.object({
  deviceId: z.string().min(1).max(200),
  ipAddress: z.string().max(64).optional(),
  appVersion: z.string().max(40).optional(),
  deviceMake: z.string().max(80).optional(),
  deviceModel: z.string().max(80).optional(),
  deviceOsVersion: z.string().max(80).optional(),
  deviceType: z.coerce.number().int().min(1).max(9).default(3),
  deviceTime: z.string().max(64).optional(),
});
export type GuestSignInBody = z.infer<typeof guestSignInBody>;

/** Token triple (spec §3). accessExpireAt: ISO date-time when the access token expires. */
export const tokenSchema = z.object({ accessToken: z.string(), refreshToken: z.string(), accessExpireAt: z.string() });
export type Tokens = z.infer<typeof tokenSchema>;

/** POST /generateToken */
/**
 * POST /generateToken. The web app sends no refToken: its refresh token travels in the HttpOnly
 * cookie `masar_rt` (path /api/v1/generateToken). API clients may send it in the body.
 */
export const generateTokenBody = z.object({ refToken: z.string().min(1).max(200).optional(), accessToken: z.string().max(2000).optional() }).default({});
export const generateTokenResponse = z.object({ accessToken: z.string(), accessExpireAt: z.string(), refreshToken: z.string().optional() });

export const OTP_PURPOSES = ['signup', 'login', 'reset'] as const;
export type OtpPurpose = (typeof OTP_PURPOSES)[number];
/** POST /account/sendOtp → data { otpId } */
export const sendOtpBody = z.object({ phone: phoneSchema, purpose: z.enum(OTP_PURPOSES) });

/** POST /account/signUp (spec §3 User signup, §5). */
export const signUpBody = z.object({
  accountType: z.union(ACCOUNT_TYPES.map((t) => z.literal(t)) as [z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<3>]),
  firstName: nameSchema,
  lastName: nameSchema,
  companyName: z.string().trim().min(1, 'v.required').max(120),
  email: emailSchema,
  phone: phoneSchema,
  password: passwordSchema,
  otpId: z.uuid({ error: 'v.otpFormat' }),
  otp: otpSchema,
});
export type SignUpBody = z.infer<typeof signUpBody>;

/** POST /account/signIn — by password, or by OTP. */
export const signInBody = z.union([
  z.object({ phone: phoneSchema, password: loginPasswordSchema }),
  z.object({ phone: phoneSchema, otpId: z.uuid({ error: 'v.otpFormat' }), otp: otpSchema }),
]);
export type SignInBody = z.infer<typeof signInBody>;

/** Device info sent on logout (spec §3). */
export const logoutBody = z
  .object({
    ipAddress: z.string().max(64).optional(),
    latitude: z.number().optional(),
    longitude: z.number().optional(),
    deviceMake: z.string().max(80).optional(),
    deviceModel: z.string().max(80).optional(),
    deviceOsVersion: z.string().max(80).optional(),
    deviceId: z.string().max(200).optional(),
    city: z.string().max(80).optional(),
    country: z.string().max(80).optional(),
    refToken: z.string().optional(),
  })
  .default({});

export const changePasswordBody = z
  .object({ oldPassword: loginPasswordSchema, newPassword: passwordSchema, confirmPassword: z.string() })
  .refine((b) => b.newPassword === b.confirmPassword, { message: 'v.passwordsDoNotMatch', path: ['confirmPassword'] });

/** POST /account/forgotPassword — sends a reset OTP by SMS, answers { otpId }. */
export const forgotPasswordBody = z.object({ phone: phoneSchema });

/** POST /account/resetPassword — with the OTP id and code received by SMS. */
export const resetPasswordBody = z
  .object({ phone: phoneSchema, otpId: z.uuid({ error: 'v.otpFormat' }), otp: otpSchema, newPassword: passwordSchema, confirmPassword: z.string() })
  .refine((b) => b.newPassword === b.confirmPassword, { message: 'v.passwordsDoNotMatch', path: ['confirmPassword'] });

/** accountsDetails block of the profile (spec §3). */
export const accountsDetailsSchema = z.object({
  status: z.number().int(),
  accountType: z.number().int(),
  isFirstTimeApproved: z.boolean(),
  isFirstTimeLoginAfterApproved: z.boolean(),
});

/** GET /accountDetails — the signed-in user's profile (a team member: the owner's, with `team`). */
export const profileSchema = z.object({
  id: z.uuid(),
  accountType: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  companyName: z.string(),
  email: z.string(),
  phone: z.string(),
  status: z.number().int(),
  statusText: z.string(),
  isFirstTimeApproved: z.boolean(),
  isFirstTimeLoginAfterApproved: z.boolean(),
  accountsDetails: accountsDetailsSchema,
  activeSubscriptionId: z.uuid().nullable(),
  mqttTopic: z.string(),
  fcmTopic: z.string(),
  createdAt: z.string(),
  /** Set when the user is a team member: the profile is then the owner's account they act for (issue 8). */
  team: teamActingSchema.nullable().optional(),
});
export type Profile = z.infer<typeof profileSchema>;

export const authResponse = z.object({ token: tokenSchema, profile: profileSchema });

/** data of POST /account/sendOtp and /account/forgotPassword: the id to send back with the code. */
export const otpSentResponse = z.object({ otpId: z.uuid() });

/** data of POST /guest/signIn (spec §7: data.token). */
export const guestSignInResponse = z.object({ token: tokenSchema });

/**
 * PATCH /account — edit profile basics. Every field optional, at least one given. A changed
 * e-mail must not belong to another account (409 EMAIL_EXISTS).
 */
export const updateProfileBody = z
  .object({
    firstName: nameSchema.optional(),
    lastName: nameSchema.optional(),
    companyName: z.string().trim().min(1, 'v.required').max(120).optional(),
    email: emailSchema.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'v.required' });
export type UpdateProfileBody = z.infer<typeof updateProfileBody>;
