import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import ContactPage from './ContactPage';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const app = (
  <Routes>
    <Route path="/contact" element={<ContactPage />} />
    <Route path="/thank-you" element={<p>thank-you page</p>} />
  </Routes>
);

describe('Contact page', () => {
  it('validates in Arabic with the shared schema, then posts once with an Idempotency-Key and goes to /thank-you', { timeout: 30_000 }, async () => {
    await i18n.changeLanguage('ar');
    const calls = stubApi((method, path) =>
      method === 'POST' && path === '/contact'
        ? { status: 202, body: { message: 'تم', data: { id: '0193b2c4-8d1e-7f00-9a00-000000000001', reference: 'CT-7KQ2MX' } } }
        : undefined,
    );
    renderWithApp(app, { dir: 'rtl', path: '/contact' });
    expect(await screen.findByRole('heading', { level: 1, name: 'تواصل معنا' })).toBeTruthy();
    expect(document.title).toBe('تواصل معنا · مسار');
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByTestId('contact-name'), 'س');
    await user.type(screen.getByTestId('contact-email'), 'not-an-email');
    await user.type(screen.getByTestId('contact-phone'), '0412345678');
    await user.type(screen.getByTestId('contact-message'), 'قصيرة');
    await user.click(screen.getByTestId('contact-submit'));
    expect(await screen.findByText('أدخل اسمك (من ٢ إلى ٨٠ حرفاً).')).toBeTruthy();
    expect(screen.getByText('أدخل بريداً إلكترونياً صحيحاً.')).toBeTruthy();
    expect(screen.getByText('يجب أن يبدأ رقم الجوال بالرقم 5.')).toBeTruthy();
    expect(screen.getByText('اختر موضوع رسالتك.')).toBeTruthy();
    expect(screen.getByText('اكتب رسالة من ١٠ إلى ٢٬٠٠٠ حرف.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(screen.getByTestId('contact-name'), 'عد الشمري');
    await user.clear(screen.getByTestId('contact-email'));
    await user.type(screen.getByTestId('contact-email'), 'saad@example.com');
    await user.clear(screen.getByTestId('contact-phone'));
    await user.click(screen.getByTestId('contact-topic'));
    await user.click(await screen.findByRole('option', { name: 'نقل الحمولات', hidden: true }));
    await user.type(screen.getByTestId('contact-message'), ' — لدينا عشر شاحنات في حائل ونريد معرفة طريقة تقديم العروض.');
    await user.click(screen.getByTestId('contact-submit'));
    expect(await screen.findByText('thank-you page')).toBeTruthy();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0].path).toBe('/contact');
    expect(posts[0].body).toEqual({
      name: 'سعد الشمري',
      email: 'saad@example.com',
      topic: 'carrier',
      message: 'قصيرة — لدينا عشر شاحنات في حائل ونريد معرفة طريقة تقديم العروض.',
    });
    expect(posts[0].headers['idempotency-key']).toMatch(/.{8,}/);
  });

  it('stays on the form when the server refuses the message (rate limit)', { timeout: 30_000 }, async () => {
    stubApi((method, path) =>
      method === 'POST' && path === '/contact'
        ? { status: 429, body: { message: 'Too many requests. Please wait and try again.', code: 'RATE_LIMITED' } }
        : undefined,
    );
    renderWithApp(app, { path: '/contact' });
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByTestId('contact-name'), 'Sara Al-Zahrani');
    await user.type(screen.getByTestId('contact-email'), 'sara@example.com');
    await user.click(screen.getByTestId('contact-topic'));
    await user.click(await screen.findByRole('option', { name: 'Partnerships', hidden: true }));
    await user.type(screen.getByTestId('contact-message'), 'We would like to integrate our TMS with Masar.');
    await user.click(screen.getByTestId('contact-submit'));
    await waitFor(() => expect(screen.getByTestId('contact-submit').hasAttribute('data-loading')).toBe(false));
    expect(screen.queryByText('thank-you page')).toBeNull();
  });
});
