import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TeamMember } from '@masar/shared';
import i18n, { loadNamespaces } from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import TeamPage from './TeamPage';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const member: TeamMember = {
  id: '01a209a0-f013-7870-91ba-96a536020d73',
  phone: '+966551234567',
  name: 'Faisal Al-Harbi',
  role: 'dispatcher',
  status: 'active',
  memberUserId: '01a209a0-da1c-7778-ae40-762645dcdc30',
  createdAt: '2026-11-20T10:00:00.000Z',
  acceptedAt: '2026-11-20T11:00:00.000Z',
  removedAt: null,
};

describe('TeamPage', { timeout: 20_000 }, () => {
  it('lists members with role and status, checks the invite form and sends the E.164 phone with an Idempotency-Key', async () => {
    await loadNamespaces(['team'], 'en');
    const calls = stubApi((method, path, body) => {
      if (method === 'GET' && path === '/account/team') return { body: { message: 'OK', data: { items: [member], total: 1, max: 50 } } };
      if (method === 'POST' && path === '/account/team')
        return {
          status: 201,
          body: { message: 'OK', data: { ...member, id: '01a209a0-0000-7000-8000-000000000001', status: 'invited', ...(body as object) } },
        };
      return undefined;
    });
    renderWithApp(<TeamPage />, { path: '/shippers/account/team' });
    expect(await screen.findByText('Faisal Al-Harbi')).toBeTruthy();
    // the page states what removal does to the member's integrations (issue 22)
    expect(screen.getByTestId('team-leaving').textContent).toMatch(/revokes the API keys and webhooks/);
    expect(screen.getByText('Active')).toBeTruthy();
    expect(screen.getByText('Members: 1 of 50')).toBeTruthy();
    // each row's controls say whose they are (a screen reader lists them out of context)
    expect(screen.getByRole('button', { name: 'Remove Faisal Al-Harbi' })).toBeTruthy();
    expect(screen.getAllByLabelText<HTMLInputElement>('Role of Faisal Al-Harbi').some((e) => e.value === 'Dispatcher')).toBe(true);

    await userEvent.click(screen.getByTestId('team-invite'));
    const phone = await screen.findByTestId<HTMLInputElement>('team-phone');
    expect(phone.value).toBe('+966 ');
    await userEvent.type(phone, '55');
    await userEvent.click(screen.getByTestId('team-send'));
    expect(await screen.findByText('Enter a valid phone number.')).toBeTruthy();
    expect(screen.getByText('This field is required.')).toBeTruthy();
    const invites = () => calls.filter((c) => c.method === 'POST' && c.path === '/account/team');
    expect(invites()).toHaveLength(0);

    await userEvent.clear(phone);
    await userEvent.type(phone, '0551234999');
    await userEvent.type(screen.getByTestId('team-name'), 'Sara');
    await userEvent.click(screen.getByTestId('team-send'));
    await waitFor(() => expect(invites()).toHaveLength(1));
    const post = invites()[0];
    expect(post.body).toEqual({ phone: '+966551234999', name: 'Sara', role: 'dispatcher' });
    expect(post.headers['idempotency-key']).toBeTruthy();
  });

  it('renders in Arabic', async () => {
    await i18n.changeLanguage('ar');
    await loadNamespaces(['team'], 'ar');
    stubApi((method, path) => (method === 'GET' && path === '/account/team' ? { body: { message: 'OK', data: { items: [], total: 0, max: 50 } } } : undefined));
    renderWithApp(<TeamPage />, { dir: 'rtl', path: '/shippers/account/team' });
    expect(await screen.findByText('لا يوجد أعضاء في الفريق بعد.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'أعضاء الفريق' })).toBeTruthy();
  });
});
