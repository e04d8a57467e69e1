import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadFixture } from '../../../test/fixtures';
import { renderWithApp, stubApi } from '../../../test/render';
import { BidPanel } from './BidPanel';

/** Issue 23: Enter in the bid field places the bid, as the button does. */
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('BidPanel', () => {
  it('Enter in the price field sends the bid once', async () => {
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path.startsWith('/offers')) return { body: { message: 'OK', data: { items: [], nextCursor: null } } };
      if (method === 'POST' && path === '/offers') return { status: 201, body: { message: 'OK', data: {} } };
      return undefined;
    });
    renderWithApp(<BidPanel load={loadFixture()} />, { path: '/carriers/loads/x' });
    const input = screen.getByTestId('bid-input');
    const user = userEvent.setup();
    await user.clear(input);
    await user.type(input, '4200{Enter}');
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ loadId: loadFixture().id, priceSar: '4200.00' });
  });

  it('Enter with an empty price shows the error and sends nothing', async () => {
    const calls = stubApi((method, path) =>
      method === 'GET' && path.startsWith('/offers') ? { body: { message: 'OK', data: { items: [], nextCursor: null } } } : undefined,
    );
    renderWithApp(<BidPanel load={loadFixture()} />, { path: '/carriers/loads/x' });
    const input = screen.getByTestId('bid-input');
    const user = userEvent.setup();
    await user.clear(input);
    await user.type(input, '{Enter}');
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});

/** Issue 23: on a phone the bid form is far down the page; a bar fixed at the bottom brings it up. */
describe('BidPanel on a phone', () => {
  it('shows the asking price in a sticky bar whose button brings the form into view and focuses the price', async () => {
    const phone = (q: string) => ({
      matches: q.includes('max-width'),
      media: q,
      onchange: null,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      addListener: vi.fn(),
      removeListener: vi.fn(),
      dispatchEvent: vi.fn(),
    });
    vi.stubGlobal('matchMedia', phone);
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    stubApi((method, path) =>
      method === 'GET' && path.startsWith('/offers') ? { body: { message: 'OK', data: { items: [], nextCursor: null } } } : undefined,
    );
    renderWithApp(<BidPanel load={loadFixture()} />, { path: '/carriers/loads/x' });
    const bar = await screen.findByTestId('bid-sticky');
    expect(bar.textContent).toContain('The shipper asks');
    await userEvent.setup().click(screen.getByTestId('bid-sticky-go'));
    expect(scrolled).toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByTestId('bid-input'));
  });

  it('has no sticky bar on a wide screen', async () => {
    stubApi((method, path) =>
      method === 'GET' && path.startsWith('/offers') ? { body: { message: 'OK', data: { items: [], nextCursor: null } } } : undefined,
    );
    renderWithApp(<BidPanel load={loadFixture()} />, { path: '/carriers/loads/x' });
    await screen.findByTestId('bid-input');
    expect(screen.queryByTestId('bid-sticky')).toBeNull();
  });
});
