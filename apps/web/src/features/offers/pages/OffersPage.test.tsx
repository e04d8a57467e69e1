import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
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
