import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import i18n from '../../../i18n';
import { renderWithApp } from '../../../test/render';
import InfoPage from './InfoPage';

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

describe('About us', () => {
  it('shows the customer testimonials in Arabic, marked as illustrative', async () => {
    await i18n.changeLanguage('ar');
    renderWithApp(<InfoPage page="about" />, { dir: 'rtl', path: '/about-us' });
    const block = await screen.findByTestId('testimonials');
    expect(within(block).getByRole('heading', { level: 2, name: 'ماذا يقول عملاؤنا' })).toBeTruthy();
    expect(within(block).getByTestId('testimonials-sample').textContent).toBe('آراء نموذجية');
    expect(block.textContent).toContain('نماذج توضيحية');
    expect(within(block).getAllByText(/\(توضيحي\)/)).toHaveLength(4);
  });

  it('is only on About us, not on the terms', () => {
    renderWithApp(<InfoPage page="terms" />, { path: '/terms-and-conditions' });
    expect(screen.queryByTestId('testimonials')).toBeNull();
  });
});
