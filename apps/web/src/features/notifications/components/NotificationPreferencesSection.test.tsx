import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultNotificationPreferences, type NotificationPreferences } from '@masar/shared';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import { NotificationPreferencesSection } from './NotificationPreferencesSection';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('notification preferences', { timeout: 20_000 }, () => {
  it('shows category × channel switches (SMS only where offered) and saves the whole preferences', async () => {
    const calls = stubApi((m, p, body) => {
      if (p !== '/user/notification/preferences') return undefined;
      return { body: { message: 'OK', data: m === 'PUT' ? body : defaultNotificationPreferences() } };
    });
    renderWithApp(<NotificationPreferencesSection />, { path: '/carriers/setting' });
    const email = await screen.findByRole('switch', { name: 'Offers: E-mail' });
    expect((email as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('switch', { name: 'Offers: SMS' })).toBeTruthy();
    expect(screen.queryByRole('switch', { name: 'Billing: SMS' })).toBeNull();
    await userEvent.click(email);
    await userEvent.click(screen.getByTestId('save-notification-preferences'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')).toBeTruthy());
    const sent = calls.find((c) => c.method === 'PUT')!.body as NotificationPreferences;
    expect(sent.channels.offers.email).toBe(false);
    expect(sent.channels.shipments.email).toBe(true);
    expect(sent.digestMinutes).toBe(15);
  });
});
