import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { paymentTermDays } from '@masar/shared';
import i18n from '.';
import { setDigitSystem } from '../lib/digits';
import { fieldErrors } from '../lib/form';
import { renderWithApp, stubApi } from '../test/render';
import { VehicleForm } from '../features/fleet/components/VehicleForm';
import { TrailerForm } from '../features/fleet/components/TrailerForm';
import HelpPage from '../features/public/pages/HelpPage';
import ContactPage from '../features/public/pages/ContactPage';

/**
 * Issue 9: a number a reader reads in a sentence (limits, sizes, rates, days, hours) is
 * interpolated, never written in the translation, so it follows the digit setting with the rest
 * of the page: "٥ ميجابايت" / "5 ميجابايت", "٢٬٠٠٠" / "2,000", "٣٫٥" / "3.5".
 */
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  setDigitSystem(null);
  document.documentElement.lang = '';
  await i18n.changeLanguage('en');
});

const WESTERN = /[0-9]/;
const lists = (method: string, path: string) => {
  if (method !== 'GET') return undefined;
  if (path.startsWith('/equipmentTypes')) return { body: { message: 'OK', data: { items: [] } } };
  if (path.startsWith('/drivers') || path.startsWith('/trailers') || path.startsWith('/vendors'))
    return { body: { message: 'OK', data: { items: [], total: 0 } } };
  return undefined;
};

describe('hints with numbers', () => {
  it('fleet forms: Arabic-Indic by default in Arabic, Western when chosen, at once', { timeout: 30_000 }, async () => {
    await i18n.changeLanguage('ar');
    stubApi(lists);
    renderWithApp(<VehicleForm onDone={() => {}} onCancel={() => {}} />, { dir: 'rtl' });
    expect(await screen.findByText('أكبر من ٠ وبحد أقصى ٤٥٬٠٠٠ كجم (٤٥ طناً)')).toBeTruthy();
    expect(screen.getByText('١٥ رقماً بالضبط')).toBeTruthy();
    expect(screen.getByText('من ٤ إلى ٩ أحرف أو أرقام')).toBeTruthy();
    expect(screen.getByText('٤ أرقام، عربية أو لاتينية')).toBeTruthy();
    act(() => setDigitSystem('latn'));
    expect(await screen.findByText('أكبر من 0 وبحد أقصى 45,000 كجم (45 طناً)')).toBeTruthy();
    expect(screen.getByText('15 رقماً بالضبط')).toBeTruthy();
  });

  it('trailer ranges keep their grouping: ٢٬٠٠٠ / 2,000', { timeout: 30_000 }, async () => {
    await i18n.changeLanguage('ar');
    stubApi(lists);
    renderWithApp(<TrailerForm onDone={() => {}} onCancel={() => {}} />, { dir: 'rtl' });
    expect(await screen.findByText('من ٥٠٠ إلى ٢٬٠٠٠ سم')).toBeTruthy();
    expect(screen.getByText('من ١٬٠٠٠ إلى ٥٠٬٠٠٠ كجم')).toBeTruthy();
    cleanup();
    await i18n.changeLanguage('en');
    renderWithApp(<TrailerForm onDone={() => {}} onCancel={() => {}} />);
    expect(await screen.findByText('500 to 2,000 cm')).toBeTruthy();
    act(() => setDigitSystem('arab'));
    expect(await screen.findByText('٥٠٠ to ٢٬٠٠٠ cm')).toBeTruthy();
  });

  it('the help guide: weights with decimals, radius, VAT rate, trial days, file size', async () => {
    await i18n.changeLanguage('ar');
    renderWithApp(<HelpPage />, { dir: 'rtl', path: '/help' });
    const text = document.body.textContent ?? '';
    expect(text).toContain('وزنها ٣٫٥ طن');
    expect(text).toContain('(من ١٠ إلى ١٬٠٠٠ كم)');
    expect(text).toContain('المضافة ١٥٪');
    expect(text).toContain('لمدة ١٠ أيام');
    expect(text).toContain('بحجم ٥ ميجابايت');
    expect(text).not.toMatch(/\{\{/);
    cleanup();
    act(() => setDigitSystem('latn'));
    renderWithApp(<HelpPage />, { dir: 'rtl', path: '/help' });
    expect(document.body.textContent).toContain('وزنها 3.5 طن');
    expect(document.body.textContent).toContain('(من 10 إلى 1,000 كم)');
  });

  it('opening hours come from the time formatter', async () => {
    await i18n.changeLanguage('ar');
    stubApi(() => undefined);
    renderWithApp(<ContactPage />, { dir: 'rtl', path: '/contact-us' });
    expect(await screen.findByText(/من ٠?٨:٠٠ إلى ١٧:٠٠/)).toBeTruthy();
    cleanup();
    await i18n.changeLanguage('en');
    renderWithApp(<ContactPage />, { path: '/contact-us' });
    expect(await screen.findByText('Sunday to Thursday, 8:00 to 17:00 (Riyadh time).')).toBeTruthy();
  });

  it('t() of sizes, days and counts', async () => {
    await i18n.changeLanguage('ar');
    expect(i18n.t('verification:tooLarge', { mb: 5 })).toBe('حجم الملف أكبر من ٥ ميجابايت.');
    expect(i18n.t('trips:driver.proofHint', { mb: 10 })).toBe('JPG أو PNG أو WebP أو PDF، بحد أقصى ١٠ ميجابايت.');
    expect(i18n.t('vendors:paymentTerms.net_30', { days: paymentTermDays('net_30') })).toBe('خلال ٣٠ يوماً');
    expect(i18n.t('vendors:hint.vat', { n: 15 })).toBe('١٥ رقماً تبدأ بـ 3');
    setDigitSystem('latn');
    expect(i18n.t('verification:tooLarge', { mb: 5 })).toBe('حجم الملف أكبر من 5 ميجابايت.');
    expect(i18n.t('assignment:needsWasl', { tons: 3.5 })).toContain('مهمة 3.5 طن');
    setDigitSystem('arab');
    expect(i18n.t('assignment:needsWasl', { tons: 3.5 })).toContain('مهمة ٣٫٥ طن');
    await i18n.changeLanguage('en');
    expect(i18n.t('vendors:paymentTerms.net_90', { days: paymentTermDays('net_90') })).toBe('Net ٩٠ days');
  });
});

describe('rule messages and the server', () => {
  it('shared validation messages: numbers in the setting, grouping kept, identifier digits Western', () => {
    const issues = [
      { path: ['capacityKg'], message: 'v.trailerCapacity' },
      { path: ['vatNumber'], message: 'v.vatNumber' },
    ];
    expect(fieldErrors(issues, 'ar')).toEqual({ capacityKg: 'يجب أن تكون الحمولة بين ١٬٠٠٠ و٥٠٬٠٠٠ كجم.', vatNumber: 'الرقم الضريبي ١٥ رقماً ويبدأ بـ 3.' });
    setDigitSystem('latn');
    expect(fieldErrors(issues, 'ar').capacityKg).toBe('يجب أن تكون الحمولة بين 1,000 و50,000 كجم.');
    expect(fieldErrors(issues, 'en').capacityKg).not.toMatch(/[\u0660-\u0669]/);
    expect(fieldErrors(issues, 'en').capacityKg).toMatch(WESTERN);
  });

  it('every API request names the reader’s digit system (Accept-Language -u-nu-), language stays plain', { timeout: 30_000 }, async () => {
    await i18n.changeLanguage('ar');
    document.documentElement.lang = 'ar';
    const calls = stubApi(lists);
    renderWithApp(<TrailerForm onDone={() => {}} onCancel={() => {}} />, { dir: 'rtl' });
    await screen.findByText('من ٥٠٠ إلى ٢٬٠٠٠ سم');
    await vi.waitFor(() => expect(calls.length).toBeGreaterThan(0));
    expect(calls[0].headers).toMatchObject({ language: 'ar', 'accept-language': 'ar-u-nu-arab' });
    cleanup();
    act(() => setDigitSystem('latn'));
    const later = stubApi(lists);
    renderWithApp(<TrailerForm onDone={() => {}} onCancel={() => {}} />, { dir: 'rtl' });
    await vi.waitFor(() => expect(later.length).toBeGreaterThan(0));
    expect(later[0].headers).toMatchObject({ language: 'ar', 'accept-language': 'ar-u-nu-latn' });
  });
});
