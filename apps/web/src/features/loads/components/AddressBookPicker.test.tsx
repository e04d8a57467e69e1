import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SavedAddress } from '@masar/shared';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import { emptyLoadForm } from '../utils/loadForm';
import { LoadForm } from './LoadForm';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const saved: SavedAddress = {
  id: '0190f4c2-8a4b-7c3d-9e1f-2a3b4c5d6e7f',
  label: 'Jeddah port gate',
  cityId: 18,
  districtId: null,
  address: 'Gate 7, Islamic Port',
  addressDetails: { buildingNumber: '7788', streetName: 'Port Rd', district: 'Al Bughdadiyah', region: 'Makkah', zipCode: '22231' },
  lat: 21.5,
  lng: 39.2,
  createdAt: '2026-11-01T08:00:00.000Z',
  updatedAt: '2026-11-01T08:00:00.000Z',
};

describe('Pick from address book (post form)', { timeout: 20_000 }, () => {
  it("fills the chosen stop's city, address and structured address, and nothing else", async () => {
    stubApi((method, path) => {
      if (path === '/account/addresses') return { body: { message: 'OK', data: { items: [saved], total: 1, max: 200 } } };
      if (path.startsWith('/cities'))
        return { body: { message: 'OK', data: { items: [{ id: 18, nameEn: 'Jeddah', nameAr: 'جدة', regionId: 2, lat: 21.5, lng: 39.2 }] } } };
      if (path.startsWith('/regions')) return { body: { message: 'OK', data: { items: [] } } };
      return { body: { message: 'OK', data: { items: [] } } };
    });
    renderWithApp(<LoadForm initialValues={emptyLoadForm()} editing={false} submitting={false} onSubmit={vi.fn()} />, { path: '/shippers/post-load' });
    const picker = await screen.findByTestId('stop-1-book');
    await userEvent.click(picker);
    await waitFor(() => expect(document.getElementById(picker.getAttribute('aria-controls') ?? '')).toBeTruthy());
    const listbox = document.getElementById(picker.getAttribute('aria-controls')!)!;
    await userEvent.click(within(listbox).getByRole('option', { name: 'Jeddah port gate', hidden: true }));
    const drop = screen.getByTestId('stop-1');
    await waitFor(() => expect(within(drop).getByTestId<HTMLInputElement>('stop-1-address').value).toBe('Gate 7, Islamic Port'));
    expect(within(drop).getByTestId<HTMLInputElement>('stop-1-buildingNumber').value).toBe('7788');
    expect(within(drop).getByTestId<HTMLInputElement>('stop-1-district').value).toBe('Al Bughdadiyah');
    expect(within(drop).getByTestId<HTMLInputElement>('stop-1-zipCode').value).toBe('22231');
    await waitFor(() => expect(within(drop).getByTestId<HTMLInputElement>('stop-1-city').value).toContain('Jeddah'));
    // the pickup stop is untouched
    expect(screen.getByTestId<HTMLInputElement>('stop-0-address').value).toBe('');
  });
});
