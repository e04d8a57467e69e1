import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import { SessionProvider } from '../../../lib/session';
import HomePage from './HomePage';

const Home = () => (
  <SessionProvider>
    <HomePage />
  </SessionProvider>
);

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const api = (method: string, path: string) => {
  if (method !== 'GET') return undefined;
  if (path.startsWith('/loads')) return { body: { message: 'OK', data: { items: [], total: 0 } } };
  if (path.startsWith('/cities')) return { body: { message: 'OK', data: { items: [], total: 0 } } };
  return undefined;
};

/** Issue 23, spec §1: testimonials for the three audiences on home, marked as samples (apps/web/src/content/testimonials.json). */
describe('home testimonials', () => {
  it('shows one sample testimonial for shippers, TMS users and carriers, labelled as samples', { timeout: 30_000 }, async () => {
    stubApi(api);
    renderWithApp(<Home />, { path: '/' });
    const block = await screen.findByTestId('testimonials', {}, { timeout: 10_000 });
    expect(within(block).getByRole('heading', { level: 2, name: 'For shippers, TMS users and carriers' })).toBeTruthy();
    expect(within(block).getByTestId('testimonials-sample').textContent).toBe('Sample testimonials');
    for (const a of ['shipper', 'tms', 'carrier']) expect(within(block).getAllByTestId(`testimonial-${a}`)).toHaveLength(1);
  });

  it('in Arabic, with the Arabic label', { timeout: 30_000 }, async () => {
    await i18n.changeLanguage('ar');
    stubApi(api);
    renderWithApp(<Home />, { path: '/', dir: 'rtl' });
    const block = await screen.findByTestId('testimonials', {}, { timeout: 10_000 });
    expect(within(block).getByTestId('testimonials-sample').textContent).toBe('آراء نموذجية');
    expect(within(block).getByTestId('testimonial-carrier').textContent).toContain('الحجاز للنقل المبرد');
  });
});
