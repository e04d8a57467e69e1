import { afterAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import i18n from '../../../i18n';
import { renderWithApp } from '../../../test/render';
import FaqPage from './FaqPage';

afterAll(async () => {
  await i18n.changeLanguage('en');
});

describe('FAQ page', () => {
  it('shows the five subscription questions in Arabic and publishes them as FAQPage structured data', async () => {
    await i18n.changeLanguage('ar');
    renderWithApp(<FaqPage />, { dir: 'rtl', path: '/faq' });
    expect(await screen.findByRole('heading', { level: 1, name: 'الأسئلة الشائعة' })).toBeTruthy();
    expect(document.title).toBe('الأسئلة الشائعة · مسار');
    const ld = JSON.parse(screen.getByTestId('faq-jsonld').innerHTML) as { '@type': string; mainEntity: { name: string; acceptedAnswer: { text: string } }[] };
    expect(ld['@type']).toBe('FAQPage');
    expect(ld.mainEntity).toHaveLength(5);
    expect(ld.mainEntity.map((q) => q.name)).toContain('كيف ألغي اشتراكي؟');
    for (const q of ld.mainEntity) expect(screen.getByRole('button', { name: q.name })).toBeTruthy();
  });
});
