import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { changePasswordBody, phoneSchema, signUpBody } from '@masar/shared';
import { ApiError } from './api';
import { apiFieldErrors, zodValidate } from './form';

describe('zodValidate (shared schemas → Mantine form errors)', () => {
  it('maps issues to field paths with localized messages', () => {
    const v = zodValidate(z.object({ phone: phoneSchema }), () => 'en');
    expect(v({ phone: '412345678' })).toEqual({ phone: 'Phone number must start with 5.' });
    expect(v({ phone: '512345678' })).toEqual({});
    const ar = zodValidate(z.object({ phone: phoneSchema }), () => 'ar');
    expect(ar({ phone: '51234' })).toEqual({ phone: 'أدخل رقم جوال صحيحاً.' });
  });

  it('writes the numbers of a rule in the digit system of the page (Arabic-Indic by default in Arabic)', () => {
    const schema = z.object({ password: changePasswordBody.shape.newPassword });
    expect(zodValidate(schema, () => 'ar')({ password: '1' })).toEqual({ password: 'يجب أن تتكون كلمة المرور من ٦ إلى ١٥ حرفاً.' });
    expect(zodValidate(schema, () => 'en')({ password: '1' })).toEqual({ password: 'Password must be 6 to 15 characters.' });
  });

  it('keeps the first message per field and follows refinements', () => {
    const v = zodValidate(changePasswordBody, () => 'en');
    expect(v({ oldPassword: 'abcdef', newPassword: 'abc', confirmPassword: 'abc' })).toEqual({ newPassword: 'Password must be 6 to 15 characters.' });
    expect(v({ oldPassword: 'abcdef', newPassword: 'Masar@2026', confirmPassword: 'Masar@2027' })).toEqual({ confirmPassword: 'Passwords do not match.' });
  });

  it('validates every sign-up field', () => {
    const v = zodValidate(signUpBody.omit({ otpId: true, otp: true }), () => 'en');
    const errors = v({ accountType: 1, firstName: '', lastName: 'x', companyName: '', email: 'nope', phone: '', password: 'short' });
    expect(Object.keys(errors).sort()).toEqual(['companyName', 'email', 'firstName', 'password', 'phone']);
  });
});

describe('apiFieldErrors (server errors → the same field map)', () => {
  it('maps error paths and codes to fields, and ignores what is not an API error', () => {
    const err = new ApiError(409, 'VENDOR_EMAIL_EXISTS', 'Email already exists.', [{ path: 'body.officeLocations[0].cityId', message: 'v.cityInvalid' }]);
    expect(apiFieldErrors(err, { VENDOR_EMAIL_EXISTS: 'email' }, 'ar')).toEqual({
      'officeLocations.0.cityId': 'أدخل مدينة صحيحة.',
      email: 'Email already exists.',
    });
    expect(apiFieldErrors(new Error('boom'))).toEqual({});
  });
});
