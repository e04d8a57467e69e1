import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import NotificationBell, { bellCount } from './NotificationBell';
import NotificationsPage from '../pages/NotificationsPage';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const LOAD = '33333333-3333-4333-8333-333333333333';
const n = (id: string, over: object = {}) => ({
  id,
  type: 'offer.created',
  category: 'offers',
  loadId: LOAD,
  referenceId: 'LD-001305',
  params: { priceSar: '2500.00' },
  link: `/shippers/loads/${LOAD}`,
  createdAt: '2026-11-26T10:00:00.000Z',
  readAt: null,
  ...over,
});
const ID1 = '0193a000-0000-7000-8000-000000000001';
const ID2 = '0193a000-0000-7000-8000-000000000002';

describe('notification bell', { timeout: 20_000 }, () => {
  it('caps the count at 99+ in the reader digits', () => {
    expect(bellCount(7, 'en')).toBe('7');
    expect(bellCount(120, 'en')).toBe('99+');
  });

  it('shows the unread count, lists the latest with their text and link, and marks all read', async () => {
    let unread = 2;
    const calls = stubApi((m, p) => {
      if (p === '/user/notification/unread-count') return { body: { message: 'OK', data: { unread } } };
      if (m === 'GET' && p.startsWith('/user/notification?'))
        return {
          body: {
            message: 'OK',
            data: { items: [n(ID2), n(ID1, { type: 'offer.countered', params: { priceSar: '2300.00', by: 'carrier' } })], nextCursor: null, unread },
          },
        };
      if (m === 'PATCH' && p === '/user/notification') {
        unread = 0;
        return { body: { message: 'OK', data: { marked: 2, unread: 0 } } };
      }
      return undefined;
    });
    renderWithApp(<NotificationBell base="/shippers" />, { path: '/shippers/my-loads' });
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    await waitFor(() => expect(screen.getByTestId('bell-count').getAttribute('data-count')).toBe('2'));
    await userEvent.click(bell);
    const entries = await screen.findAllByTestId('notification-entry');
    expect(entries).toHaveLength(2);
    expect(entries[0].textContent).toMatch(/New offer of .*2,500.* on .*LD-\u2060001305/);
    expect(entries[1].textContent).toMatch(/Counter offer of .*2,300/);
    expect(entries[0].getAttribute('href')).toBe(`/shippers/loads/${LOAD}`);
    await userEvent.click(screen.getByTestId('mark-all-read'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ all: true }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Notifications, none unread' })).toBeTruthy());
  });
});

describe('notifications page', { timeout: 20_000 }, () => {
  it('filters by category and unread in the query, loads more by cursor, in Arabic', async () => {
    await i18n.changeLanguage('ar');
    const calls = stubApi((m, p) => {
      if (p === '/user/notification/unread-count') return { body: { message: 'OK', data: { unread: 1 } } };
      if (m === 'GET' && p.startsWith('/user/notification?')) {
        const q = new URLSearchParams(p.split('?')[1]);
        return q.get('cursor')
          ? { body: { message: 'OK', data: { items: [n(ID1, { readAt: '2026-11-26T11:00:00.000Z' })], nextCursor: null, unread: 1 } } }
          : { body: { message: 'OK', data: { items: [n(ID2)], nextCursor: ID2, unread: 1 } } };
      }
      return undefined;
    });
    renderWithApp(<NotificationsPage />, { dir: 'rtl', path: '/shippers/notifications?category=offers&unread=1' });
    expect(await screen.findByText('إشعار واحد غير مقروء')).toBeTruthy();
    const first = await screen.findAllByTestId('notification-entry');
    expect(first[0].textContent).toContain('عرض جديد بقيمة');
    const list = calls.find((c) => c.path.startsWith('/user/notification?'))!;
    expect(new URLSearchParams(list.path.split('?')[1]).get('category')).toBe('offers');
    expect(new URLSearchParams(list.path.split('?')[1]).get('unread')).toBe('1');
    await userEvent.click(screen.getByRole('button', { name: 'تحميل المزيد' }));
    await waitFor(() => expect(screen.getAllByTestId('notification-entry')).toHaveLength(2));
    expect(within(screen.getAllByTestId('notification-entry')[1]).queryByText(/غير مقروء/)).toBeNull();
  });
});
