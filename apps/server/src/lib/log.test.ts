import { describe, expect, it } from 'vitest';
import { redactUrl } from './log.ts';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkcml2ZXItMSJ9.c2lnbmF0dXJl';

describe('redactUrl (issue 22)', () => {
  it('redacts credential query parameters, the vendor-invite path token and JWT- or key-shaped values', () => {
    expect(redactUrl(`/driver?token=${JWT}`)).toBe('/driver?token=[redacted]');
    expect(redactUrl('/vendor?invite=abc.def&lang=ar')).toBe('/vendor?invite=[redacted]&lang=ar');
    expect(redactUrl(`/api/v1/vendor-invites/${JWT}`)).toBe('/api/v1/vendor-invites/[redacted]');
    expect(redactUrl('/api/v1/vendor-invites/not-even-a-jwt?x=1')).toBe('/api/v1/vendor-invites/[redacted]?x=1');
    expect(redactUrl('/api/v1/cities?search=riy&Code=123456&OTP=1234')).toBe('/api/v1/cities?search=riy&Code=[redacted]&OTP=[redacted]');
    expect(redactUrl(`/x?next=%2Fdriver&t=${JWT}`)).toBe('/x?next=%2Fdriver&t=[redacted]');
    expect(redactUrl('/x/msk_abcdefghijklmnop/y?k=whsec_abc')).toBe('/x/[redacted]/y?k=[redacted]');
    expect(redactUrl('/x?%74oken=secret')).toBe('/x?%74oken=[redacted]');
  });

  it('leaves ordinary URLs as they are', () => {
    for (const url of ['/api/v1/loads?pickupCityId=3&radius=100', '/api/v1/loads/01a209a0-f013-7870-91ba-96a536020d73', '/', '/api/v1/cities?search=%E0%A4%A'])
      expect(redactUrl(url)).toBe(url);
  });
});
