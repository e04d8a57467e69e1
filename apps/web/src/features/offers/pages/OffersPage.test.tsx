import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import OffersPage from './OffersPage';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

/** Issue 9: an empty offers box says what to do next, with a link that does it. */
describe('OffersPage, empty', () => {
  it('invites a shipper with no offers to post a load', async () => {
    stubApi((m, path) => (m === 'GET' && path.startsWith('/offers') ? { body: { message: 'ok', data: { items: [], total: 0 } } } : undefined));
    renderWithApp(<OffersPage />, { path: '/shippers/offers' });
    const link = await screen.findByRole('link', { name: 'Post a load to receive offers' });
    expect(link.getAttribute('href')).toBe('/shippers/post-load');
  });

  it('sends a carrier with no bids to the load search, in Arabic too', async () => {
    await i18n.changeLanguage('ar');
    stubApi((m, path) => (m === 'GET' && path.startsWith('/offers') ? { body: { message: 'ok', data: { items: [], total: 0 } } } : undefined));
    renderWithApp(<OffersPage />, { path: '/carriers/offers', dir: 'rtl' });
    const link = await screen.findByRole('link', { name: 'ابحث عن شحنات لتقدّم عروضك' });
    expect(link.getAttribute('href')).toBe('/carriers/load-search');
  });
});

/** Issue 23: /offers can show only what waits for my answer. */
describe('OffersPage, your turn', () => {
  it('asks the server for the offers waiting for me when "Your turn" is chosen', async () => {
    const calls = stubApi((m, path) => (m === 'GET' && path.startsWith('/offers') ? { body: { message: 'ok', data: { items: [], total: 0 } } } : undefined));
    renderWithApp(<OffersPage />, { path: '/shippers/offers' });
    await screen.findByRole('link', { name: 'Post a load to receive offers' });
    expect(calls.every((c) => !c.path.includes('turn='))).toBe(true);
    fireEvent.click(screen.getByText('Your turn'));
    expect(await screen.findByText('Nothing waits for your answer.')).toBeTruthy();
    expect(calls.some((c) => c.path.includes('turn=mine') && c.path.includes('box=received'))).toBe(true);
  });
});
