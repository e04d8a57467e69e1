import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import AddressBookPage from './AddressBookPage';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('AddressBookPage', { timeout: 20_000 }, () => {
  it('checks a new address in Arabic and posts nothing until it is complete', async () => {
    await i18n.changeLanguage('ar');
    const calls = stubApi((method, path) =>
      method === 'GET' && path === '/account/addresses' ? { body: { message: 'OK', data: { items: [], total: 0, max: 200 } } } : undefined,
    );
    renderWithApp(<AddressBookPage />, { dir: 'rtl', path: '/shippers/account/addresses' });
    expect(await screen.findByText('لا توجد عناوين محفوظة بعد.')).toBeTruthy();
    expect(screen.getByText('المحفوظ: ٠ من ٢٠٠')).toBeTruthy();
    await userEvent.click(screen.getByTestId('address-add'));
    // a new address starts light: the national address is one switch away
    expect(screen.queryByTestId('address-zipCode')).toBeNull();
    await userEvent.click(await screen.findByTestId('address-national'));
    await userEvent.type(await screen.findByTestId('address-zipCode'), '12');
    await userEvent.click(screen.getByTestId('address-save'));
    expect(await screen.findByText('أدخل اسماً (حتى ٦٠ حرفاً).')).toBeTruthy();
    expect(screen.getByText('الرمز البريدي ٥ أرقام.')).toBeTruthy();
    expect(screen.getByText('رقم المبنى ٤ أرقام.')).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0));
  });

  it('a light address asks for the free text instead of the national address (issue 23)', async () => {
    await i18n.changeLanguage('ar');
    const calls = stubApi((method, path) =>
      method === 'GET' && path === '/account/addresses' ? { body: { message: 'OK', data: { items: [], total: 0, max: 200 } } } : undefined,
    );
    renderWithApp(<AddressBookPage />, { dir: 'rtl', path: '/shippers/account/addresses' });
    await userEvent.click(await screen.findByTestId('address-add'));
    await userEvent.type(await screen.findByTestId('address-label'), 'مستودع السلي');
    await userEvent.click(screen.getByTestId('address-save'));
    expect(await screen.findByText('اكتب العنوان، أو أدخل العنوان الوطني.')).toBeTruthy();
    // no national-address errors on a light address
    expect(screen.queryByText('الرمز البريدي ٥ أرقام.')).toBeNull();
    // only one district field
    expect(screen.getAllByTestId('address-district')).toHaveLength(1);
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0));
  });
});
