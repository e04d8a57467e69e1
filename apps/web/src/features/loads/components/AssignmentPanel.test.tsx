import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Load } from '@masar/shared';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import { AssignmentPanel } from './AssignmentPanel';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const LOAD_ID = '01a201c4-0000-7000-8000-0000000000aa';
const VEHICLE = '01a201c4-0000-7000-8000-0000000000bb';
const load = { id: LOAD_ID, status: 'unassigned', options: ['assign'] } as unknown as Load;
const none = { loadId: LOAD_ID, status: 'unassigned', assignedAt: null, vehicle: null, driver: null, trailer: null };
const assigned = {
  loadId: LOAD_ID,
  status: 'assigned',
  assignedAt: '2026-11-23T10:00:00Z',
  vehicle: {
    id: VEHICLE,
    plate: { digits: '1234', left: 'ا', middle: 'ب', right: 'ح' },
    plateType: 1,
    vehicleType: 'flatbed_trailer',
    weightKg: 26000,
    waslStatus: 'verified',
  },
  driver: { id: '01a201c4-0000-7000-8000-0000000000cc', name: 'Fahad Driver', phone: '+966551234567' },
  trailer: { id: '01a201c4-0000-7000-8000-0000000000dd', trailerNumber: 'TR-100001' },
};

describe('AssignmentPanel (issue 7)', () => {
  it('lets the awarded carrier pick a ready vehicle and assign it with an Idempotency-Key, in Arabic', { timeout: 30_000 }, async () => {
    await i18n.changeLanguage('ar');
    let current: unknown = none;
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path === `/delivery-tracking/${LOAD_ID}`) return { body: { message: 'OK', data: current } };
      if (method === 'GET' && path === '/vehicles/for-assignment')
        return {
          body: {
            message: 'OK',
            data: {
              items: [
                {
                  id: VEHICLE,
                  plate: assigned.vehicle.plate,
                  plateType: 1,
                  make: 'Volvo',
                  model: 'FH16',
                  driverName: 'Fahad',
                  trailerNumber: 'TR-1',
                  waslStatus: 'verified',
                },
              ],
            },
          },
        };
      if (method === 'POST' && path === '/delivery-tracking/assign-driver') {
        current = assigned;
        return { body: { message: 'OK', data: assigned } };
      }
      return undefined;
    });
    renderWithApp(<AssignmentPanel load={load} isCarrier fleetPath="/carriers/fleet-management" />, { dir: 'rtl', path: `/carriers/loads/${LOAD_ID}` });
    const user = userEvent.setup({ delay: null });
    expect((await screen.findByTestId('assignment-none')).textContent).toContain('لم تُسند مركبة بعد');
    await user.click(screen.getByTestId('assign-open'));
    const confirm = await screen.findByTestId('assign-confirm');
    expect(confirm.hasAttribute('disabled') || confirm.getAttribute('data-disabled') === 'true').toBe(true);
    await user.click(await screen.findByTestId(`vehicle-option-${VEHICLE}`));
    await user.click(screen.getByTestId('assign-confirm'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ loadId: LOAD_ID, vehicleId: VEHICLE });
    expect(post.headers['idempotency-key']).toMatch(/.{8,}/);
    expect((await screen.findByTestId('assignment-details')).textContent).toContain('Fahad Driver');
    await i18n.changeLanguage('en');
  });

  it('says when no vehicle is ready and links to the fleet', async () => {
    await i18n.changeLanguage('en');
    stubApi((method, path) => {
      if (method === 'GET' && path === `/delivery-tracking/${LOAD_ID}`) return { body: { message: 'OK', data: none } };
      if (method === 'GET' && path === '/vehicles/for-assignment') return { status: 404, body: { message: 'none', code: 'NO_VEHICLES_FOR_ASSIGNMENT' } };
      return undefined;
    });
    renderWithApp(<AssignmentPanel load={load} isCarrier fleetPath="/carriers/fleet-management" />, { path: `/carriers/loads/${LOAD_ID}?action=assign` });
    expect((await screen.findByTestId('no-vehicles')).textContent).toContain('No vehicles available for assignment');
  });

  it('shows the shipper the assigned truck without assign or unassign buttons', async () => {
    stubApi((method, path) => (method === 'GET' && path === `/delivery-tracking/${LOAD_ID}` ? { body: { message: 'OK', data: assigned } } : undefined));
    renderWithApp(<AssignmentPanel load={{ ...load, status: 'assigned' }} isCarrier={false} fleetPath="/shippers/fleet-management" />, {
      path: `/shippers/loads/${LOAD_ID}`,
    });
    expect((await screen.findByTestId('assignment-details')).textContent).toContain('TR-100001');
    expect(screen.queryByTestId('assign-open')).toBeNull();
    expect(screen.queryByTestId('unassign-open')).toBeNull();
  });
});
