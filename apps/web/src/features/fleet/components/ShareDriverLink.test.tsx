import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import { ShareDriverLinkModal, whatsAppShareUrl } from './ShareDriverLink';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const driver = { id: '0190a3c2-0000-7000-8000-000000000001', phone: '+966512345678' };

describe('<ShareDriverLinkModal>', () => {
  it('shows the job link, sends it by SMS to the driver and offers WhatsApp with the link', { timeout: 30_000 }, async () => {
    await i18n.changeLanguage('ar');
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path === `/drivers/${driver.id}/link`)
        return { body: { message: 'OK', data: { url: '/driver?token=abc', token: 'abc', expiresAt: '2026-12-03T00:00:00Z' } } };
      if (method === 'POST' && path === `/drivers/${driver.id}/link/sms`)
        return { body: { message: 'تم الإرسال', data: { sentTo: driver.phone, expiresAt: '2026-12-03T00:00:00Z' } } };
      return undefined;
    });
    const onClose = vi.fn();
    renderWithApp(<ShareDriverLinkModal driver={driver} onClose={onClose} />, { dir: 'rtl' });
    const url = `${window.location.origin}/driver?token=abc`;
    await waitFor(() => expect(screen.getByTestId<HTMLInputElement>('driver-link-url').value).toBe(url));
    const wa = screen.getByTestId('driver-link-whatsapp');
    expect(wa.getAttribute('href')).toBe(whatsAppShareUrl(driver.phone, `رابط رحلتك على مسار: ${url}`));
    expect(wa.getAttribute('href')).toMatch(/^https:\/\/wa\.me\/966512345678\?text=/);
    await userEvent.setup({ delay: null }).click(screen.getByTestId('driver-link-sms'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`/drivers/${driver.id}/link/sms`]);
  });
});
