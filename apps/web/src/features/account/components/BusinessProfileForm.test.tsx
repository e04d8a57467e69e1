import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BusinessProfile } from '@masar/shared';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import { BusinessProfileForm } from './BusinessProfileForm';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const profile: BusinessProfile = {
  companyName: 'Najd Foods',
  crNumber: null,
  vatNumber: null,
  fax: null,
  website: null,
  logo: null,
  cityId: null,
  districtId: null,
  addressDetails: null,
  updatedAt: null,
};

describe('BusinessProfileForm', { timeout: 20_000 }, () => {
  it('shows the spec §5 rules in Arabic and sends nothing while they fail', async () => {
    await i18n.changeLanguage('ar');
    const calls = stubApi(() => undefined);
    renderWithApp(<BusinessProfileForm profile={profile} />, { dir: 'rtl', path: '/shippers/account' });
    await userEvent.type(screen.getByTestId('bp-crNumber'), '12345');
    await userEvent.type(screen.getByTestId('bp-vatNumber'), '123456789012345');
    await userEvent.type(screen.getByTestId('bp-fax'), '12345');
    await userEvent.type(screen.getByTestId('bp-website'), 'najd');
    await userEvent.type(screen.getByTestId('address-buildingNumber'), '12');
    await userEvent.click(screen.getByTestId('bp-save'));
    expect(await screen.findByText('رقم السجل التجاري ١٠ أرقام بالضبط ولا يكون أصفاراً فقط.')).toBeTruthy();
    expect(screen.getByText('الرقم الضريبي ١٥ رقماً ويبدأ بـ 3.')).toBeTruthy();
    expect(screen.getByText('الفاكس ٧ أرقام.')).toBeTruthy();
    expect(screen.getByText('أدخل عنوان ويب كاملاً (https://…).')).toBeTruthy();
    expect(screen.getByText('رقم المبنى ٤ أرقام.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('sends a valid profile (Arabic-Indic digits accepted, empty fields cleared)', async () => {
    const calls = stubApi((method, path, body) =>
      method === 'PUT' && path === '/account/business-profile'
        ? {
            body: {
              message: 'Business profile saved.',
              data: { ...profile, ...(body as object), crNumber: '1010234567', updatedAt: new Date().toISOString() },
            },
          }
        : undefined,
    );
    renderWithApp(<BusinessProfileForm profile={profile} />, { path: '/shippers/account' });
    await userEvent.type(screen.getByTestId('bp-crNumber'), '١٠١٠٢٣٤٥٦٧');
    await userEvent.type(screen.getByTestId('bp-vatNumber'), '300123456700003');
    await userEvent.click(screen.getByTestId('bp-save'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({
      companyName: 'Najd Foods',
      crNumber: '١٠١٠٢٣٤٥٦٧',
      vatNumber: '300123456700003',
      fax: '',
      website: '',
      logoFileId: null,
      cityId: null,
      districtId: null,
      addressDetails: null,
    });
  });
});
