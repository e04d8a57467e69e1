import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithApp } from '../../../test/render';
import ThankYouPage from './ThankYouPage';

describe('Thank-you page', () => {
  it('thanks the sender and keeps itself out of search results while shown', async () => {
    const view = renderWithApp(<ThankYouPage />, { path: '/thank-you' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Thank you for your message' })).toBeTruthy();
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    view.unmount();
    expect(document.head.querySelector('meta[name="robots"]')).toBeNull();
  });
});
