import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import VendorInvitePage from './VendorInvitePage';

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const refs = (method: string, path: string) => {
  if (method === 'GET' && (path.startsWith('/regions') || path.startsWith('/equipmentTypes'))) return { body: { message: 'OK', data: { items: [] } } };
  if (method === 'GET' && path.startsWith('/vendor-invites/tok'))
    return { body: { message: 'OK', data: { companyName: 'Qahtani Transport Co.', accountType: 2, expiresAt: '2026-12-22T00:00:00Z' } } };
  return undefined;
};

describe('public vendor sign-up (/vendor?invite=)', () => {
  it('validates with the shared vendor schema in Arabic, submits and shows the request state', { timeout: 60_000 }, async () => {
    await i18n.changeLanguage('ar');
    const calls = stubApi((method, path) => {
      if (method === 'POST' && path === '/vendor-invites/tok')
        return { status: 201, body: { message: 'OK', data: { id: '01a201c4-0000-7000-8000-000000000002', status: 'request_submitted' } } };
      return refs(method, path);
    });
    renderWithApp(<VendorInvitePage />, { path: '/vendor?invite=tok', dir: 'rtl' });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText(/Qahtani Transport Co\./)).toBeTruthy();
    await user.type(screen.getByTestId('vendor-companyName'), 'Asir Trucking');
    await user.type(screen.getByTestId('vendor-vendorName'), 'Fahd');
    await user.type(screen.getByTestId('vendor-phone'), '0559998887');
    await user.type(screen.getByTestId('vendor-email'), 'fahd@asir.sa');
    await user.type(screen.getByTestId('vendor-vatNumber'), '123');
    await user.click(screen.getByTestId('vendor-submit'));
    expect(await screen.findByText('الرقم الضريبي ١٥ رقماً ويبدأ بـ 3.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.clear(screen.getByTestId('vendor-vatNumber'));
    await user.click(screen.getByTestId('vendor-submit'));
    await waitFor(() => expect(screen.getByTestId('vendor-request-steps').getAttribute('data-status')).toBe('request_submitted'));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toMatchObject({ userType: 'carrier', companyName: 'Asir Trucking', vendorName: 'Fahd', phone: '+966559998887', email: 'fahd@asir.sa' });
    expect(post.body).not.toHaveProperty('documentFileIds');
    await i18n.changeLanguage('en');
  });

  it('says so when the link has no token', async () => {
    await i18n.changeLanguage('en');
    stubApi(refs);
    renderWithApp(<VendorInvitePage />, { path: '/vendor' });
    expect((await screen.findByTestId('vendor-invite-invalid')).textContent).toContain('invalid or has expired');
  });
});
