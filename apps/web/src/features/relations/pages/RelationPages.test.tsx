import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import RelationListPage from './RelationListPage';
import SettingsPage from './SettingsPage';
import { displayValue } from '../components/CounterpartContactCard';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const entry = (userId: string, companyName: string) => ({
  userId,
  companyName,
  accountType: 2,
  verified: true,
  reason: 'Late twice',
  createdAt: '2026-11-20T10:00:00.000Z',
});
const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

describe('favourites and blocked lists', { timeout: 20_000 }, () => {
  it('shows an empty state in Arabic that says what to do next', async () => {
    await i18n.changeLanguage('ar');
    stubApi((m, p) =>
      m === 'GET' && p.startsWith('/account/favourite') ? { body: { message: 'OK', data: { items: [], nextCursor: null, total: 0, max: 1000 } } } : undefined,
    );
    renderWithApp(<RelationListPage kind="favourite" />, { dir: 'rtl', path: '/shippers/favourites' });
    expect(await screen.findByText('لا توجد شركات في المفضلة بعد.')).toBeTruthy();
    expect(screen.getByText('افتح شحنة أو عرضاً واختر «إضافة إلى المفضلة» من قائمة الشركة.')).toBeTruthy();
  });

  it('pages the blocked list and unblocks a company', async () => {
    let blocked = [entry(A, 'Qassim Haulage'), entry(B, 'Tabuk Trucks')];
    const calls = stubApi((m, p) => {
      if (m === 'GET' && p.startsWith('/account/blocked')) {
        const second = p.includes('cursor=');
        const items = second ? blocked.slice(1) : blocked.slice(0, 1);
        return { body: { message: 'OK', data: { items, nextCursor: second || blocked.length < 2 ? null : 'c1', total: blocked.length, max: 1000 } } };
      }
      if (m === 'DELETE' && p === `/account/blocked/${A}`) {
        blocked = blocked.filter((e) => e.userId !== A);
        return { body: { message: 'OK', data: null } };
      }
      return undefined;
    });
    renderWithApp(<RelationListPage kind="blocked" />, { path: '/carriers/blocked' });
    expect(await screen.findByText('Qassim Haulage')).toBeTruthy();
    expect(screen.getByText('Late twice')).toBeTruthy();
    expect(screen.getByText('2 of 1,000')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('Tabuk Trucks')).toBeTruthy();
    await userEvent.click(screen.getAllByTestId('relation-remove')[0]);
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === `/account/blocked/${A}`)).toBe(true));
    await waitFor(() => expect(screen.queryByText('Qassim Haulage')).toBeNull());
  });
});

describe('settings page', { timeout: 20_000 }, () => {
  it('saves one channel at a time', async () => {
    const calls = stubApi((m, p, body) => {
      if (p !== '/account/settings') return undefined;
      const data = { chat: 'counterparts', audio: 'counterparts', video: 'counterparts', ...(m === 'PATCH' ? (body as object) : {}) };
      return { body: { message: 'OK', data } };
    });
    renderWithApp(<SettingsPage />, { path: '/brokers/setting' });
    expect(await screen.findByText('Who may contact me')).toBeTruthy();
    expect(await screen.findByText('Video call (WhatsApp video)')).toBeTruthy();
    const video = await screen.findByTestId('setting-video');
    await userEvent.click(video);
    const listbox = await waitFor(() => document.getElementById(video.getAttribute('aria-controls') ?? '')!);
    await userEvent.click(within(listbox).getByRole('option', { name: 'Nobody', hidden: true }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ video: 'nobody' }));
  });

  it('has a Display section whose digit choice changes every number at once', async () => {
    stubApi((_m, p) => (p === '/account/settings' ? { body: { message: 'OK', data: { chat: 'everyone', audio: 'everyone', video: 'everyone' } } } : undefined));
    renderWithApp(<SettingsPage />, { path: '/brokers/setting' });
    const display = await screen.findByTestId('display-settings');
    expect(within(display).getByText('Display')).toBeTruthy();
    await userEvent.click(within(display).getByText('٠١٢'));
    await waitFor(() => expect(localStorage.getItem('digits')).toBe('arab'));
    await userEvent.click(within(display).getByText('012'));
    await waitFor(() => expect(localStorage.getItem('digits')).toBe('latn'));
  });
});

describe('contact card numbers', () => {
  it('formats phones internationally and leaves e-mail as is', () => {
    expect(displayValue({ kind: 'phone', channel: 'audio', value: '+966551234567', href: 'tel:+966551234567' })).toBe('+966 55 123 4567');
    expect(displayValue({ kind: 'email', channel: 'chat', value: 'ops@hail.example', href: 'mailto:ops@hail.example' })).toBe('ops@hail.example');
  });
});
