import type { OtpPurpose, Profile, Tokens } from '@masar/shared';
import { api } from '../../../lib/api';

export interface AuthResult {
  token: Tokens;
  profile: Profile;
}

/** Calls of the sign-in, sign-up and password screens (spec §7). */
export const authApi = {
  sendOtp: (phone: string, purpose: OtpPurpose) => api.post<{ otpId: string }>('/account/sendOtp', { phone, purpose }),
  signInPassword: (phone: string, password: string) => api.post<AuthResult>('/account/signIn', { phone, password }),
  signInOtp: (phone: string, otpId: string, otp: string) => api.post<AuthResult>('/account/signIn', { phone, otpId, otp }),
  signUp: (body: Record<string, unknown>) => api.post<AuthResult>('/account/signUp', body),
  forgotPassword: (phone: string) => api.post<{ otpId: string }>('/account/forgotPassword', { phone }),
  resetPassword: (body: { phone: string; otpId: string; otp: string; newPassword: string; confirmPassword: string }) =>
    api.post<null>('/account/resetPassword', body),
};
