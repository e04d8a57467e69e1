import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n, { loadNamespaces } from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import DriverTripPage from './DriverTripPage';

const LOAD = '01a201c4-0000-7000-8000-000000000009';
const stop = (cityEn: string, cityAr: string) => ({
  lat: 24.7,
  lng: 46.73,
  cityEn,
  cityAr,
  address: null,
  street: null,
  districtEn: null,
  districtAr: null,
  date: '2026-11-25T08:00:00Z',
  latestAt: null,
  hours: null,
});
const job = (steps: string[], nextStep: string | null) => ({
  loadId: LOAD,
  referenceId: 'MSR-000123',
  status: 'assigned',
  pickup: stop('Riyadh', 'الرياض'),
  drop: stop('Jeddah', 'جدة'),
  goods: 'building_materials',
  cargo: [
    { goodsType: 'building_materials', quantity: 10, weightKg: 1500, adr: false, conditions: null },
    { goodsType: 'chemicals', quantity: 2, weightKg: 500, adr: true, conditions: 'Keep upright' },
  ],
  totalWeightKg: 2000,
  steps: steps.map((s) => ({
    step: s,
    at: '2026-11-23T10:00:00Z',
    recordedAt: null,
    lat: null,
    lng: null,
    geoError: 'unsupported',
    distanceKm: null,
    flagged: false,
  })),
  proofs: [],
  nextStep,
  contacts: { dispatcher: null, shipper: null },
});

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the driver job page (/driver?token=)', () => {
  it(
    'identifies the driver, keeps the trip token in sessionStorage, sends steps with it and shows the spec’s location message in Arabic',
    { timeout: 60_000 },
    async () => {
      await i18n.changeLanguage('ar');
      await loadNamespaces(['trips'], 'ar');
      let steps: string[] = [];
      const calls = stubApi((method, path, body) => {
        if (method === 'POST' && path === '/driver/trip/session') {
          const b = body as { phone: string; licenceNumber: string };
          if (b.licenceNumber !== '12345678')
            return { status: 403, body: { message: 'رقم الجوال ورقم الرخصة لا يطابقان رابط المهمة هذا.', code: 'DRIVER_NOT_IDENTIFIED' } };
          return { body: { message: 'OK', data: { sessionToken: 'trip-tok', expiresAt: '2099-01-01T00:00:00Z', driverName: 'Saad Driver' } } };
        }
        if (method === 'GET' && path === '/driver/trip')
          return { body: { message: 'OK', data: { driverName: 'Saad Driver', items: [job(steps, steps.length ? 'to_pickup' : 'started')] } } };
        if (method === 'POST' && path === '/driver/trip/steps') {
          steps = ['started'];
          return { status: 201, body: { message: 'OK', data: job(steps, 'to_pickup') } };
        }
        return undefined;
      });
      renderWithApp(<DriverTripPage />, { path: '/driver?token=job-link', dir: 'rtl' });
      const user = userEvent.setup({ delay: null });
      await user.type(screen.getByTestId('trip-phone'), '0551234567');
      await user.type(screen.getByTestId('trip-licence'), '99999999');
      await user.click(screen.getByTestId('trip-open'));
      expect((await screen.findByTestId('trip-identify-error')).textContent).toContain('لا يطابقان');
      await user.clear(screen.getByTestId('trip-licence'));
      await user.type(screen.getByTestId('trip-licence'), '12345678');
      await user.click(screen.getByTestId('trip-open'));
      const next = await screen.findByTestId('trip-next');
      expect(next.textContent).toBe('ابدأ المهمة');
      expect(JSON.parse(sessionStorage.getItem('masar.tripSession')!)).toMatchObject({ sessionToken: 'trip-tok', link: 'job-link' });

      // jsdom has no geolocation: the step goes without a position and the spec's message shows
      await user.click(next);
      await waitFor(() => expect(screen.getByTestId('trip-next').getAttribute('data-step')).toBe('to_pickup'));
      const post = calls.find((c) => c.method === 'POST' && c.path === '/driver/trip/steps')!;
      expect(post.body).toEqual({ loadId: LOAD, step: 'started', geoError: 'unsupported' });
      expect(post.headers['x-trip-token']).toBe('trip-tok');
      expect(screen.getByTestId('trip-geo-error').textContent).toBe('تحديد الموقع الجغرافي غير مدعوم في هذا المتصفح.');
      // issue 49: the steps are numbered in the reader's digits (the done step shows its check mark)
      expect(screen.getByTestId('trip-step-to_pickup').textContent).toContain('٢');
      expect(screen.getByTestId('trip-step-completed').textContent).toContain('٨');
      expect(screen.getByTestId('trip-steps').textContent).not.toMatch(/[0-9]/);
      await i18n.changeLanguage('en');
    },
  );

  it('warns (without blocking) a step taken before the pickup window opens', { timeout: 60_000 }, async () => {
    await i18n.changeLanguage('en');
    await loadNamespaces(['trips'], 'en');
    const later = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const early = { ...job([], 'started'), pickup: { ...stop('Riyadh', 'الرياض'), date: later } };
    stubApi((method, path) => {
      if (method === 'POST' && path === '/driver/trip/session')
        return { body: { message: 'OK', data: { sessionToken: 'trip-tok', expiresAt: '2099-01-01T00:00:00Z', driverName: 'Saad Driver' } } };
      if (method === 'GET' && path === '/driver/trip') return { body: { message: 'OK', data: { driverName: 'Saad Driver', items: [early] } } };
      return undefined;
    });
    renderWithApp(<DriverTripPage />, { path: '/driver?token=job-link' });
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByTestId('trip-phone'), '0551234567');
    await user.type(screen.getByTestId('trip-licence'), '12345678');
    await user.click(screen.getByTestId('trip-open'));
    expect((await screen.findByTestId('trip-before-window')).textContent).toContain('The pickup window opens');
    expect(screen.getByTestId<HTMLButtonElement>('trip-next').disabled).toBe(false);
  });

  it('shows both stops with their address and a navigate link, every cargo line, and sends a proof in one tap', { timeout: 60_000 }, async () => {
    await i18n.changeLanguage('en');
    await loadNamespaces(['trips'], 'en');
    const atPickup = {
      ...job(['started', 'to_pickup', 'at_pickup'], 'pickup_proof'),
      pickup: { ...stop('Riyadh', 'الرياض'), address: 'Gate 3, Sulay warehouses' },
      contacts: { dispatcher: { name: 'Fahad', phone: '+966551112222' }, shipper: { name: 'Najd Cement', phones: ['+966553334444', '+966114567890'] } },
    };
    const calls = stubApi((method, path) => {
      if (method === 'POST' && path === '/driver/trip/session')
        return { body: { message: 'OK', data: { sessionToken: 'trip-tok', expiresAt: '2099-01-01T00:00:00Z', driverName: 'Saad Driver' } } };
      if (method === 'GET' && path === '/driver/trip') return { body: { message: 'OK', data: { driverName: 'Saad Driver', items: [atPickup] } } };
      if (method === 'POST' && path.startsWith('/driver/trip/proofs')) return { status: 201, body: { message: 'OK', data: atPickup } };
      return undefined;
    });
    renderWithApp(<DriverTripPage />, { path: '/driver?token=job-link' });
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByTestId('trip-phone'), '0551234567');
    await user.type(screen.getByTestId('trip-licence'), '12345678');
    await user.click(screen.getByTestId('trip-open'));
    const pickup = await screen.findByTestId('trip-pickup');
    expect(pickup.textContent).toContain('Gate 3, Sulay warehouses');
    expect(screen.getByTestId('trip-navigate-pickup').getAttribute('href')).toBe('https://www.google.com/maps/dir/?api=1&destination=24.7,46.73');
    expect(screen.getByTestId('trip-navigate-drop')).toBeTruthy();
    const cargo = screen.getByTestId('trip-cargo').textContent ?? '';
    expect(cargo).toContain('10 pcs');
    expect(cargo).toContain('Keep upright');
    expect(cargo).toContain('ADR');
    // call buttons: the dispatcher and each phone the shipper shares
    expect(screen.getByTestId('trip-call-dispatcher').getAttribute('href')).toBe('tel:+966551112222');
    expect(screen.getByTestId('trip-call-shipper-0').getAttribute('href')).toBe('tel:+966553334444');
    expect(screen.getByTestId('trip-call-shipper-1').getAttribute('href')).toBe('tel:+966114567890');
    // choosing the photo sends it: no second tap
    const input = screen.getByTestId('trip-proof-file').parentElement!.querySelector('input[type=file]') ?? document.querySelector('input[type=file]')!;
    await user.upload(input as HTMLInputElement, new File(['%PDF-1.4'], 'pod.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST' && c.path.startsWith('/driver/trip/proofs'))).toHaveLength(1));
  });

  it(
    'queues the steps tapped offline in IndexedDB, says how many wait, and sends them in order with their device times on `online` (issue 49)',
    { timeout: 60_000 },
    async () => {
      await i18n.changeLanguage('ar');
      await loadNamespaces(['trips'], 'ar');
      let steps: string[] = [];
      const order = ['started', 'to_pickup', 'at_pickup', 'pickup_proof'];
      const calls = stubApi((method, path, body) => {
        if (method === 'POST' && path === '/driver/trip/session')
          return { body: { message: 'OK', data: { sessionToken: 'trip-tok', expiresAt: '2099-01-01T00:00:00Z', driverName: 'Saad Driver' } } };
        if (method === 'GET' && path === '/driver/trip')
          return { body: { message: 'OK', data: { driverName: 'Saad Driver', items: [job(steps, order[steps.length])] } } };
        if (method === 'POST' && path === '/driver/trip/steps') {
          steps = [...steps, (body as { step: string }).step];
          return { status: 201, body: { message: 'OK', data: job(steps, order[steps.length]) } };
        }
        return undefined;
      });
      const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
      renderWithApp(<DriverTripPage />, { path: '/driver?token=job-link', dir: 'rtl' });
      const user = userEvent.setup({ delay: null });
      await user.type(screen.getByTestId('trip-phone'), '0551234567');
      await user.type(screen.getByTestId('trip-licence'), '12345678');
      await user.click(screen.getByTestId('trip-open'));
      for (const [i, s] of ['started', 'to_pickup', 'at_pickup'].entries()) {
        // the button is ready (not still busy with the previous tap) and offers this step
        await waitFor(() => {
          const button = screen.getByTestId('trip-next');
          expect([button.getAttribute('data-step'), button.hasAttribute('data-loading')]).toEqual([s, false]);
        });
        await user.click(screen.getByTestId('trip-next'));
        await waitFor(() => expect(screen.getByTestId('trip-pending').getAttribute('data-count')).toBe(String(i + 1)));
      }
      expect(screen.getByTestId('trip-pending').textContent).toBe('٣ خطوات بانتظار الإرسال');
      expect(calls.filter((c) => c.path === '/driver/trip/steps')).toHaveLength(0);
      // the next action is the proof of pickup, as if the steps were in
      expect(screen.getByTestId('trip-next').getAttribute('data-step')).toBe('pickup_proof');

      online.mockReturnValue(true);
      window.dispatchEvent(new Event('online'));
      await waitFor(() => expect(screen.queryByTestId('trip-pending')).toBeNull());
      const posts = calls.filter((c) => c.path === '/driver/trip/steps');
      expect(posts.map((c) => (c.body as { step: string }).step)).toEqual(['started', 'to_pickup', 'at_pickup']);
      const times = posts.map((c) => Date.parse((c.body as { recordedAt: string }).recordedAt));
      expect(times.every((t, i) => i === 0 || t >= times[i - 1])).toBe(true);
      expect(new Set(posts.map((c) => c.headers['idempotency-key'])).size).toBe(3);
      online.mockRestore();
      await i18n.changeLanguage('en');
    },
  );

  it('says the link is invalid without a token', async () => {
    await i18n.changeLanguage('en');
    await loadNamespaces(['trips'], 'en');
    stubApi(() => undefined);
    renderWithApp(<DriverTripPage />, { path: '/driver' });
    expect((await screen.findByTestId('trip-invalid-link')).textContent).toContain('invalid');
  });
});
