import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { DriverStop } from '@masar/shared';
import i18n, { loadNamespaces } from '../../../i18n';
import { renderWithApp } from '../../../test/render';
import { StopDetails } from './StopDetails';

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

/** A pickup in Riyadh's Al Olaya district, 08:00–10:30 Riyadh time, open 08:00–17:00. */
const STOP: DriverStop = {
  lat: 24.6911,
  lng: 46.6855,
  cityEn: 'Riyadh',
  cityAr: 'الرياض',
  address: 'Gate 3, warehouse B',
  street: '2468 King Fahd Road',
  districtEn: 'Al Olaya',
  districtAr: 'العليا',
  date: '2026-12-08T05:00:00Z',
  latestAt: '2026-12-08T07:30:00Z',
  hours: { from: '08:00', to: '17:00' },
};
/** Text without the bidi isolates (U+2068/U+2069) that keep names in their own direction. */
const plain = (s: string | null) => (s ?? '').replace(/[\u2068\u2069]/g, '');
const CONTACT = { name: 'Najd Cement', phone: '+966551234567' };

async function show(lang: 'en' | 'ar', stop: DriverStop = STOP, contact: typeof CONTACT | null = CONTACT) {
  await i18n.changeLanguage(lang);
  await loadNamespaces(['trips'], lang);
  renderWithApp(<StopDetails kind="pickup" stop={stop} lang={lang} contact={contact} />, { dir: lang === 'ar' ? 'rtl' : 'ltr' });
  return screen.getByTestId('trip-pickup');
}

describe("the driver's stop block (issue 49: the stop, not just the city)", () => {
  it('shows the street, district, window and hours in English, with Google and Apple Maps links and a call button', async () => {
    const block = await show('en');
    expect(plain(block.textContent)).toContain('Riyadh · Al Olaya district');
    expect(screen.getByTestId('trip-pickup-street').textContent).toContain('2468 King Fahd Road');
    expect(block.textContent).toContain('Gate 3, warehouse B');
    const window = screen.getByTestId('trip-pickup-window').textContent;
    // 05:00Z and 07:30Z are 08:00 and 10:30 in Riyadh
    expect(window).toMatch(/^Window: 8 Dec 2026, 08:00 to 8 Dec 2026, 10:30 · open 8:00–17:00$/);
    expect(screen.getByTestId('trip-navigate-pickup').getAttribute('href')).toBe('https://www.google.com/maps/dir/?api=1&destination=24.6911,46.6855');
    expect(screen.getByTestId('trip-apple-pickup').getAttribute('href')).toBe('https://maps.apple.com/?daddr=24.6911,46.6855');
    const call = screen.getByTestId('trip-call-pickup');
    expect(call.getAttribute('href')).toBe('tel:+966551234567');
    // the number as people write it (libphonenumber-js)
    expect(call.textContent).toBe('+966 55 123 4567');
  });

  it('speaks Arabic with Arabic-Indic digits; the phone number stays a left-to-right identifier', async () => {
    const block = await show('ar');
    expect(plain(block.textContent)).toContain('الرياض · حي العليا');
    const window = screen.getByTestId('trip-pickup-window').textContent;
    expect(window).toContain('الموعد');
    expect(window).toContain('٨');
    expect(window).toContain('٢٠٢٦');
    expect(window).not.toMatch(/[0-9]/);
    const call = screen.getByTestId('trip-call-pickup');
    expect(within(call).getByText('+966 55 123 4567').getAttribute('dir')).toBe('ltr');
    expect(screen.getByTestId('trip-apple-pickup').textContent).toBe('خرائط Apple');
  });

  it('leaves out what the stop does not have: no district, street, window end, hours or contact', async () => {
    const bare = { ...STOP, street: null, address: null, districtEn: null, districtAr: null, latestAt: null, hours: null };
    const block = await show('en', bare, null);
    expect(block.textContent).not.toContain('district');
    expect(screen.queryByTestId('trip-pickup-street')).toBeNull();
    expect(screen.getByTestId('trip-pickup-window').textContent).toBe('Window: 8 Dec 2026, 08:00');
    expect(screen.queryByTestId('trip-call-pickup')).toBeNull();
  });
});
