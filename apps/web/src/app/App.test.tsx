import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../i18n';
import { App } from './App';
import { readFetch } from '../test/render';

/**
 * The shell wired together in jsdom against a fake API: guest sign-in before the first call,
 * sign-in by password, landing per type, the route guard, logout keeping the language.
 */
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  for (const c of document.cookie.split('; ')) document.cookie = `${c.split('=')[0]}=; path=/; max-age=0`;
  localStorage.clear();
});

const profile = {
  id: '01a201bb-0000-7000-8000-000000000001',
  accountType: 2,
  firstName: 'Fahad',
  lastName: 'Q',
  companyName: 'Q Co',
  email: 'c@x.sa',
  phone: '+966500000002',
  status: 1,
  statusText: 'Pending verification',
  isFirstTimeApproved: false,
  isFirstTimeLoginAfterApproved: false,
  accountsDetails: { status: 1, accountType: 2, isFirstTimeApproved: false, isFirstTimeLoginAfterApproved: false },
  activeSubscriptionId: null,
  mqttTopic: 't',
  fcmTopic: 't',
  createdAt: '2026-11-01T00:00:00.000Z',
};
const token = (n: string) => ({ accessToken: `acc-${n}`, refreshToken: `ref-${n}`, accessExpireAt: '2099-01-01T00:00:00.000Z' });

function fakeApi() {
  const calls: { method: string; path: string; auth: string | null; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: string | Request, init?: RequestInit) => {
    const req = await readFetch(input, init);
    const path = req.url.pathname.replace('/api/v1', '');
    calls.push({ method: req.method, path, auth: req.headers.authorization ?? null, body: req.body });
    const ok = (data: unknown) => new Response(JSON.stringify({ message: 'OK', data }), { status: 200 });
    if (path === '/guest/signIn') return ok({ token: token('guest') });
    if (path === '/account/signIn') return ok({ token: token('user'), profile });
    if (path === '/accountDetails') return ok(profile);
    if (path === '/account/logout') return ok(null);
    // the account page's sections (issue 8): an empty business profile and nothing shared yet
    if (path === '/account/business-profile')
      return ok({
        companyName: 'Q Co',
        crNumber: null,
        vatNumber: null,
        fax: null,
        website: null,
        logo: null,
        cityId: null,
        districtId: null,
        addressDetails: null,
        updatedAt: null,
      });
    if (path === '/account/contact-info') {
      const off = { value: null, share: false };
      return ok({ phone: off, email: off, whatsapp: off, officePhone: off });
    }
    return ok({ items: [], total: 0 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

describe('app shell', () => {
  it('signs in a carrier by password, lands on load search, shows the pending banner, logs out keeping the language', async () => {
    const calls = fakeApi();
    await i18n.changeLanguage('en');
    document.cookie = 'language=en; path=/';
    window.history.pushState({}, '', '/login');
    render(<App />);
    const user = userEvent.setup();

    await screen.findByLabelText('Mobile number', {}, { timeout: 5000 });
    // the header also has a "Sign in" link-button: the form's submit is the last one
    await user.click(screen.getAllByRole('button', { name: 'Sign in' }).at(-1)!);
    expect(await screen.findByText('Enter a valid phone number.')).toBeTruthy();
    expect(screen.getByText('Password must be at least 6 characters.')).toBeTruthy();

    await user.type(screen.getByLabelText('Mobile number'), '0500000002');
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'Masar@2026');
    await user.click(screen.getAllByRole('button', { name: 'Sign in' }).at(-1)!);

    await waitFor(() => expect(window.location.pathname).toBe('/carriers/load-search'));
    const signIn = calls.find((c) => c.path === '/account/signIn')!;
    expect(signIn.body).toEqual({ phone: '+966500000002', password: 'Masar@2026' });
    expect(signIn.auth).toBe('Bearer acc-guest'); // a guest token first (spec §4)
    expect(document.cookie).toContain('uid=');
    expect(await screen.findByText(/Your account is pending approval/)).toBeTruthy();

    // the guard keeps a signed-in carrier off the home page
    window.history.pushState({}, '', '/');
    window.dispatchEvent(new PopStateEvent('popstate'));
    await waitFor(() => expect(window.location.pathname).toBe('/carriers/load-search'));

    // the account page follows the type and has the logout button
    window.history.pushState({}, '', '/shippers/account');
    window.dispatchEvent(new PopStateEvent('popstate'));
    await waitFor(() => expect(window.location.pathname).toBe('/carriers/account'));
    expect(await screen.findByText('Pending verification', {}, { timeout: 5000 })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    const logout = calls.find((c) => c.path === '/account/logout')!;
    expect(logout.auth).toBe('Bearer acc-user');
    expect(logout.body).not.toHaveProperty('refToken');
    expect(document.cookie).not.toMatch(/(^|; )(token|refreshToken)=/);
    expect(logout.body).toMatchObject({ deviceId: expect.any(String) });
    expect(document.cookie).not.toContain('uid=');
    expect(document.cookie).toContain('language=en');
  }, 20_000);

  it('sends a guest opening a carrier e-mail link home with the not-signed-in alert', async () => {
    fakeApi();
    window.history.pushState({}, '', '/carriers/my-shipments?trigger=email');
    render(<App />);
    expect(await screen.findByText('You are not signed in', {}, { timeout: 5000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/');
  });
});
