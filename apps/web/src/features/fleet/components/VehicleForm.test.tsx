import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import { VehicleForm } from './VehicleForm';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const lists = (method: string, path: string) => {
  if (method !== 'GET') return undefined;
  if (path.startsWith('/equipmentTypes'))
    return { body: { message: 'OK', data: { items: [{ code: 'dyna', nameEn: 'Dyna', nameAr: 'دينا', class: 'light', maxWeightKg: 4000 }] } } };
  if (path.startsWith('/drivers') || path.startsWith('/trailers') || path.startsWith('/vendors'))
    return { body: { message: 'OK', data: { items: [], total: 0 } } };
  return undefined;
};

describe('<VehicleForm>', () => {
  it('validates with the shared vehicle schema and shows Arabic messages', { timeout: 30_000 }, async () => {
    await i18n.changeLanguage('ar');
    const calls = stubApi(lists);
    renderWithApp(<VehicleForm onDone={() => {}} onCancel={() => {}} />, { dir: 'rtl' });
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByTestId('plate-digits'), '0000');
    await user.click(screen.getByTestId('vehicle-submit'));
    expect(await screen.findByText('رقم اللوحة ٤ أرقام ولا يمكن أن يكون أصفاراً فقط.')).toBeTruthy();
    expect(screen.getByText('اختر ثلاثة أحرف للوحة.')).toBeTruthy();
    expect(screen.getByTestId('vehicle-form').textContent).toContain('يرجى تعبئة جميع الحقول المطلوبة بشكل صحيح.');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await i18n.changeLanguage('en');
  });

  it('posts a valid vehicle and shows a duplicate plate inline', { timeout: 30_000 }, async () => {
    await i18n.changeLanguage('en');
    const calls = stubApi((method, path, body) => {
      if (method === 'POST' && path === '/vehicles') return { status: 409, body: { message: 'Duplicate plate number.', code: 'DUPLICATE_PLATE' } };
      return lists(method, path) ?? (body ? undefined : undefined);
    });
    const done = vi.fn();
    renderWithApp(<VehicleForm onDone={done} onCancel={() => {}} />);
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByTestId('plate-digits'), '1234');
    await user.click(screen.getByTestId('plate-letter-A'));
    await user.click(screen.getByTestId('plate-letter-B'));
    await user.click(screen.getByTestId('plate-letter-D'));
    await user.click(screen.getByTestId('plate-type'));
    await user.click(await screen.findByRole('option', { name: 'Private Transport', hidden: true }));
    await user.click(screen.getByTestId('vehicle-type'));
    await user.click(await screen.findByRole('option', { name: 'Dyna', hidden: true }));
    await user.type(screen.getByTestId('vehicle-year'), '2022');
    await user.type(screen.getByTestId('vehicle-make'), 'Isuzu');
    await user.type(screen.getByTestId('vehicle-model'), 'FVR');
    await user.type(screen.getByTestId('vehicle-colour'), 'White');
    await user.type(screen.getByTestId('vehicle-weight'), '12000');
    await user.type(screen.getByTestId('vehicle-sequence'), '12345');
    await user.click(screen.getByTestId('vehicle-submit'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/vehicles')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toMatchObject({
      plate: { digits: '1234', left: 'ا', middle: 'ب', right: 'د' },
      plateType: 3,
      vehicleType: 'dyna',
      year: 2022,
      weightKg: 12000,
      sequenceNumber: '12345',
      source: 'own',
    });
    expect((await screen.findAllByText('Duplicate plate number.')).length).toBeGreaterThan(0);
    expect(done).not.toHaveBeenCalled();
  });
});
