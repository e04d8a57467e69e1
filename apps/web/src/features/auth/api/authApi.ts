import { mutationOptions } from '@tanstack/react-query';
import type { OtpPurpose, Profile, Tokens } from '@masar/shared';
import { masar, unwrap, type BodyOf } from '../../../lib/api';

export interface AuthResult {
  token: Tokens;
  profile: Profile;
}

/**
 * The writes of the sign-in, sign-up and password screens (spec §7), as TanStack Query mutation
 * options: a page calls `useMutation(authMutations.signInPassword)` (issue 18: writes go through
 * useMutation). Errors are the server's ApiError (localized message, code).
 */
export const authMutations = {
  /** POST /account/sendOtp → `{ otpId }`. */
  sendOtp: mutationOptions({
    mutationFn: (body: { phone: string; purpose: OtpPurpose }) => unwrap(masar.POST('/api/v1/account/sendOtp', { body })),
  }),
  /** POST /account/signIn with phone + password → AuthResult. */
  signInPassword: mutationOptions({
    mutationFn: (body: { phone: string; password: string }) => unwrap(masar.POST('/api/v1/account/signIn', { body })),
  }),
  /** POST /account/signIn with phone + SMS code → AuthResult. */
  signInOtp: mutationOptions({
    mutationFn: (body: { phone: string; otpId: string; otp: string }) => unwrap(masar.POST('/api/v1/account/signIn', { body })),
  }),
  /** POST /account/signUp → AuthResult. */
  signUp: mutationOptions({
    mutationFn: (body: BodyOf<'/api/v1/account/signUp', 'post'>) => unwrap(masar.POST('/api/v1/account/signUp', { body })),
  }),
  /** POST /account/forgotPassword → `{ otpId }` (the code is sent by SMS). */
  forgotPassword: mutationOptions({
    mutationFn: (phone: string) => unwrap(masar.POST('/api/v1/account/forgotPassword', { body: { phone } })),
  }),
  /** POST /account/resetPassword. */
  resetPassword: mutationOptions({
    mutationFn: (body: { phone: string; otpId: string; otp: string; newPassword: string; confirmPassword: string }) =>
      unwrap(masar.POST('/api/v1/account/resetPassword', { body })),
  }),
};
