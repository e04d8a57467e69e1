import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../i18n';
import { loadFixture } from '../../../test/fixtures';
import { renderWithApp, stubApi } from '../../../test/render';
import { BookNowBadge, BookNowButton } from './BookNow';
import { filtersToQuery, parseFilters, filtersToParams } from '../utils/searchParams';
import { formToBody, loadToForm } from '../utils/loadForm';

beforeAll(async () => {
  await i18n.loadNamespaces('loads');
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const ID = '01a201b8-d4ce-74b2-b96a-76f14f4c9341';
const load = loadFixture({ id: ID, bookNow: true, bookNowFor: 'verified', priceSar: '2750.50' });

describe('Book Now (issue 19)', { timeout: 20_000 }, () => {
  it('confirms with the amount, then books once with an Idempotency-Key and the confirmed price', async () => {
    const calls = stubApi((method, path) =>
      method === 'POST' && path === '/bookNow' ? { status: 201, body: { message: 'Booked at the posted price.', data: {} } } : undefined,
    );
    renderWithApp(<BookNowButton load={load} />, { path: '/carriers/load-search' });
    await userEvent.click(screen.getByTestId('book-now-LD-000777'));
    expect((await screen.findByTestId('book-now-amount')).textContent).toMatch(/2,750\.50/);
    expect(calls.filter((c) => c.path === '/bookNow')).toHaveLength(0);
    await userEvent.click(screen.getByTestId('book-now-confirm'));
    await waitFor(() => expect(calls.filter((c) => c.path === '/bookNow')).toHaveLength(1));
    const call = calls.find((c) => c.path === '/bookNow')!;
    expect(call.body).toEqual({ loadId: ID, priceSar: '2750.50' });
    expect(call.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shows the server refusal in the dialog (Arabic)', async () => {
    await i18n.changeLanguage('ar');
    stubApi((method, path) =>
      path === '/bookNow' ? { status: 409, body: { message: 'تم إسناد هذه الشحنة مسبقاً.', code: 'SHIPMENT_ALREADY_ASSIGNED' } } : undefined,
    );
    renderWithApp(<BookNowButton load={load} />, { path: '/carriers/load-search', dir: 'rtl' });
    await userEvent.click(screen.getByRole('button', { name: 'احجز الآن' }));
    expect(await screen.findByText('ستحجز هذه الشحنة بالسعر المعلن:')).toBeTruthy();
    await userEvent.click(screen.getByTestId('book-now-confirm'));
    expect((await screen.findByTestId('book-now-error')).textContent).toBe('تم إسناد هذه الشحنة مسبقاً.');
  });

  it('the badge says who may book; none without Book Now', () => {
    renderWithApp(
      <>
        <BookNowBadge load={{ bookNow: true, bookNowFor: 'vendors' }} />
        <BookNowBadge load={{ bookNow: false, bookNowFor: null }} />
      </>,
    );
    expect(screen.getAllByTestId('book-now-badge').map((b) => b.textContent)).toEqual(['Book Now · my vendors']);
  });

  it('the board filter lives in the URL and the query', () => {
    const f = parseFilters(new URLSearchParams('bookNow=1'));
    expect(f.bookNow).toBe(true);
    expect(filtersToParams(f).get('bookNow')).toBe('1');
    expect(filtersToQuery(f).bookNow).toBe('true');
    expect(filtersToQuery(parseFilters(new URLSearchParams(''))).bookNow).toBeUndefined();
  });

  it('the load form sends the flag and who may book; an own-vehicle shipment never', () => {
    const v = { ...loadToForm(load), bookNowFor: 'vendors' as const };
    expect(formToBody(v, true)).toMatchObject({ bookNow: true, bookNowFor: 'vendors' });
    expect(formToBody({ ...v, bookNow: false }, true)).toMatchObject({ bookNow: false });
    expect(formToBody({ ...v, bookNow: false }, true)).not.toHaveProperty('bookNowFor');
    expect(formToBody({ ...v, shipmentType: 3 }, true)).toMatchObject({ bookNow: false });
  });
});
