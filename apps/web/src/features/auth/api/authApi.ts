import type { OtpPurpose, Profile, Tokens } from '@masar/shared';
import { masar, unwrap, type BodyOf } from '../../../lib/api';

export interface AuthResult {
  token: Tokens;
  profile: Profile;
}

/** Calls of the sign-in, sign-up and password screens (spec §7). */
export const authApi = {
  sendOtp: (phone: string, purpose: OtpPurpose) => unwrap(masar.POST('/api/v1/account/sendOtp', { body: { phone, purpose } })),
  signInPassword: (phone: string, password: string) => unwrap(masar.POST('/api/v1/account/signIn', { body: { phone, password } })),
  signInOtp: (phone: string, otpId: string, otp: string) => unwrap(masar.POST('/api/v1/account/signIn', { body: { phone, otpId, otp } })),
  signUp: (body: BodyOf<'/api/v1/account/signUp', 'post'>) => unwrap(masar.POST('/api/v1/account/signUp', { body })),
  forgotPassword: (phone: string) => unwrap(masar.POST('/api/v1/account/forgotPassword', { body: { phone } })),
  resetPassword: (body: { phone: string; otpId: string; otp: string; newPassword: string; confirmPassword: string }) =>
    unwrap(masar.POST('/api/v1/account/resetPassword', { body })),
};
