import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Notifications } from '@mantine/notifications';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import BayanPage from './BayanPage';
import { BayanPanel } from '../components/BayanPanel';

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const trip = (n: number, over: Record<string, unknown> = {}) => ({
  id: `01a20800-0000-7000-8000-00000000000${n}`,
  loadId: `01a20800-0000-7000-8000-00000000010${n}`,
  loadReferenceId: `LD-00012${n}`,
  status: 'active',
  tripId: `10000000${n}`,
  waybillId: `10000000${n}01`,
  waybillNumber: `AB12C${n}`,
  vehicleId: '01a20800-0000-7000-8000-000000000201',
  plateText: '4567 ا ب د',
  driverId: '01a20800-0000-7000-8000-000000000301',
  driverName: 'Fahad Driver',
  fromEn: 'Riyadh',
  fromAr: 'الرياض',
  toEn: 'Jeddah',
  toAr: 'جدة',
  cancelReason: null,
  deliveredAt: null,
  attempts: 0,
  createdAt: '2026-11-23T08:00:00Z',
  updatedAt: '2026-11-23T08:00:00Z',
  ...over,
});

describe('Bayan page', () => {
  it('lists trips, filters by status and reference, loads the next page by cursor', { timeout: 60_000 }, async () => {
    await i18n.changeLanguage('en');
    const calls = stubApi((method, path) => {
      if (path.startsWith('/account/waybill-config')) return { body: { message: 'OK', data: { config: null } } };
      if (method === 'GET' && path.startsWith('/bayan/list')) {
        const q = new URLSearchParams(path.split('?')[1]);
        if (q.get('status') === 'closed') return { body: { message: 'OK', data: { items: [], nextCursor: null } } };
        if (q.get('cursor') === 'c1')
          return { body: { message: 'OK', data: { items: [trip(2, { status: 'pending', tripId: null, waybillNumber: null })], nextCursor: null } } };
        return { body: { message: 'OK', data: { items: [trip(1)], nextCursor: 'c1' } } };
      }
      return undefined;
    });
    renderWithApp(<BayanPage />, { path: '/carriers/bayan' });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('AB12C1')).toBeTruthy();
    const table = screen.getByTestId('bayan-table');
    expect(within(table).getByText('LD-000121')).toBeTruthy();
    expect(within(table).getByText('Riyadh → Jeddah')).toBeTruthy();
    expect(within(table).getByText('Active')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(screen.getByTestId('bayan-table')).findByText('Waiting for Bayan')).toBeTruthy();
    expect(within(screen.getByTestId('bayan-table')).getByText('Pending Bayan')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    await user.type(screen.getByLabelText('Shipment or waybill number'), 'LD-0001');
    await user.click(screen.getAllByLabelText('Bayan status')[0]);
    await user.click(await screen.findByRole('option', { name: 'Closed', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByTestId('bayan-empty')).toBeTruthy();
    const last = calls.filter((c) => c.path.startsWith('/bayan/list')).at(-1)!;
    expect(new URLSearchParams(last.path.split('?')[1]).get('reference')).toBe('LD-0001');
    expect(new URLSearchParams(last.path.split('?')[1]).get('status')).toBe('closed');
  });

  it('shows the waybill config form in Arabic and refuses an empty sender before any request', { timeout: 60_000 }, async () => {
    await i18n.changeLanguage('ar');
    const calls = stubApi((method, path) => {
      if (path.startsWith('/account/waybill-config')) return { body: { message: 'OK', data: { config: null } } };
      if (path.startsWith('/bayan/list')) return { body: { message: 'OK', data: { items: [], nextCursor: null } } };
      return undefined;
    });
    renderWithApp(<BayanPage />, { path: '/shippers/bayan', dir: 'rtl' });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('إعدادات بوليصة الشحن')).toBeTruthy();
    expect(await screen.findByTestId('bayan-empty')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'حفظ' }));
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    await i18n.changeLanguage('en');
  });

  it('the panel creates Bayan only after the confirmation step and shows the waybill number', { timeout: 60_000 }, async () => {
    await i18n.changeLanguage('en');
    let created = false;
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path.startsWith('/bayan/trips?loadId='))
        return {
          body: { message: 'OK', data: { bayan: created ? { id: trip(1).id, tripId: '100000001', waybillNumber: 'AB12C1', status: 'active' } : null } },
        };
      if (method === 'POST' && path === '/bayan/trips') {
        created = true;
        return { status: 201, body: { message: 'Bayan created.', data: trip(1) } };
      }
      return undefined;
    });
    renderWithApp(<BayanPanel loadId={trip(1).loadId} options={['create_bayan', 'track']} vehicleLabel="4567 ا ب د" driverLabel="Fahad Driver" />);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Create Bayan' }));
    expect(await screen.findByText('Vehicle: 4567 ا ب د')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/bayan/trips')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Confirm and create' }));
    await waitFor(() => expect(screen.getByTestId('bayan-waybill').textContent).toContain('AB12C1'));
    expect(calls.find((c) => c.method === 'POST' && c.path === '/bayan/trips')?.body).toEqual({ loadId: trip(1).loadId });
  });

  it('closing before the driver delivered asks the shipper for a reason and sends it as the override', { timeout: 60_000 }, async () => {
    await i18n.changeLanguage('en');
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path.startsWith('/bayan/trips?loadId='))
        return { body: { message: 'OK', data: { bayan: { id: trip(1).id, tripId: '100000001', waybillNumber: 'AB12C1', status: 'active' } } } };
      if (method === 'POST' && path.endsWith('/close')) return { status: 200, body: { message: 'Bayan closed.', data: trip(1, { status: 'closed' }) } };
      return undefined;
    });
    renderWithApp(<BayanPanel loadId={trip(1).loadId} options={['close_bayan', 'cancel_bayan', 'track']} delivered={false} />);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Close Bayan' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('bayan-override-warning').textContent).toContain('has not completed the job');
    const confirm = within(dialog).getByRole('button', { name: 'Close Bayan' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    await user.type(within(dialog).getByRole('textbox', { name: /Reason for closing without proof of delivery/ }), 'Paper delivery note signed');
    expect((confirm as HTMLButtonElement).disabled).toBe(false);
    await user.click(confirm);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/close'))).toBe(true));
    expect(calls.find((c) => c.method === 'POST' && c.path.endsWith('/close'))?.body).toMatchObject({ overrideReason: 'Paper delivery note signed' });
  });

  it('closing after delivery sends no override', { timeout: 60_000 }, async () => {
    await i18n.changeLanguage('en');
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path.startsWith('/bayan/trips?loadId='))
        return { body: { message: 'OK', data: { bayan: { id: trip(1).id, tripId: '100000001', waybillNumber: 'AB12C1', status: 'active' } } } };
      if (method === 'POST' && path.endsWith('/close')) return { status: 200, body: { message: 'Bayan closed.', data: trip(1, { status: 'closed' }) } };
      return undefined;
    });
    renderWithApp(<BayanPanel loadId={trip(1).loadId} options={['close_bayan', 'track']} delivered />);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Close Bayan' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByTestId('bayan-override-warning')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Close Bayan' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/close'))).toBe(true));
    expect(calls.find((c) => c.method === 'POST' && c.path.endsWith('/close'))?.body).not.toHaveProperty('overrideReason');
  });
  it('cancels with the chosen reason, says so, closes the dialog and tells the page the shipment changed', { timeout: 60_000 }, async () => {
    await i18n.changeLanguage('en');
    let status = 'active';
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path.startsWith('/bayan/trips?loadId='))
        return { body: { message: 'OK', data: { bayan: { id: trip(1).id, tripId: '100000001', waybillNumber: 'AB12C1', status } } } };
      if (method === 'POST' && path === `/bayan/trips/${trip(1).id}/cancel`) {
        status = 'cancelled';
        return { status: 200, body: { message: 'Bayan cancelled.', data: trip(1, { status: 'cancelled' }) } };
      }
      return undefined;
    });
    const onChanged = vi.fn();
    renderWithApp(
      <>
        <Notifications />
        <BayanPanel loadId={trip(1).loadId} options={['close_bayan', 'cancel_bayan', 'track']} onChanged={onChanged} />
      </>,
    );
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Cancel Bayan' }));
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Cancel Bayan' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(dialog).getByLabelText(/^Reason/));
    await user.click(await screen.findByRole('option', { name: 'Due to damage', hidden: true }));
    await user.click(confirm);
    expect(await screen.findByText('Bayan and shipment cancelled.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST' && c.path.endsWith('/cancel'))?.body).toEqual({ reason: 'damage' });
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // the Bayan was fetched again: cancelled, so neither close nor cancel is offered any more
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Close Bayan' })).toBeNull());
  });

  it('a refused create shows the server message, keeps the dialog open and lets the user try again', { timeout: 60_000 }, async () => {
    await i18n.changeLanguage('en');
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path.startsWith('/bayan/trips?loadId=')) return { body: { message: 'OK', data: { bayan: null } } };
      if (method === 'POST' && path === '/bayan/trips')
        return { status: 409, body: { message: 'Assign a vehicle and driver first.', code: 'BAYAN_NO_ASSIGNMENT' } };
      return undefined;
    });
    const onChanged = vi.fn();
    renderWithApp(
      <>
        <Notifications />
        <BayanPanel loadId={trip(1).loadId} options={['create_bayan']} onChanged={onChanged} />
      </>,
    );
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Create Bayan' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm and create' }));
    expect(await screen.findByText('Assign a vehicle and driver first.')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(onChanged).not.toHaveBeenCalled();
    const again = within(dialog).getByRole('button', { name: 'Confirm and create' });
    await waitFor(() => expect((again as HTMLButtonElement).disabled).toBe(false));
    await user.click(again);
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST' && c.path === '/bayan/trips')).toHaveLength(2));
    // a retry of the same request keeps its Idempotency-Key
    const keys = calls.filter((c) => c.method === 'POST' && c.path === '/bayan/trips').map((c) => c.headers['idempotency-key']);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });
});
