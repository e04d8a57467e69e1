import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import i18n from '../i18n';
import { renderWithApp } from '../test/render';
import { Loading } from './Loading';

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

/** Issue 47: pages load behind skeleton lines announced once, not a lone unlabelled spinner. */
describe('Loading', () => {
  it('is one status announced in the reader’s language, its lines hidden from screen readers', async () => {
    await i18n.changeLanguage('ar');
    renderWithApp(<Loading lines={3} />, { dir: 'rtl' });
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('جارٍ التحميل…');
    expect(status.querySelectorAll('[aria-hidden="true"]')).toHaveLength(3);
  });

  it('takes a label of its own', () => {
    renderWithApp(<Loading label="Loading your dashboard" />);
    expect(screen.getByRole('status').textContent).toBe('Loading your dashboard');
  });
});
