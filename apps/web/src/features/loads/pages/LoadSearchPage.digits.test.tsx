import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import i18n from '../../../i18n';
import { localizedTheme } from '../../../app/theme';
import { DigitSystemSetting } from '../../../components/DigitSystemSetting';
import { DIGITS_KEY, setDigitSystem } from '../../../lib/digits';
import { loadFixture, stopFixture } from '../../../test/fixtures';
import { stubApi } from '../../../test/render';
import LoadSearchPage from './LoadSearchPage';

const WESTERN = /[0-9]/;
const ARABIC_INDIC = /[\u0660-\u0669]/;

beforeAll(async () => {
  await i18n.loadNamespaces('loads');
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  setDigitSystem(null);
  await i18n.changeLanguage('en');
});

const load = (n: number) =>
  loadFixture({
    id: `01a201b8-d4ce-74b2-b96a-76f14f4c93${String(n).padStart(2, '0')}`,
    referenceId: `LD-0012${String(n).padStart(2, '0')}`,
    priceSar: '12500.50',
    distanceKm: 1234,
    ratePerKmSar: '10.13',
    totalWeightKg: 24500,
    stops: [stopFixture(0, 3, 'Riyadh', 'الرياض', '2030-01-01T05:00:00Z'), stopFixture(1, 4, 'Dammam', 'الدمام', '2030-01-02T05:00:00Z')],
  });

/** The load search with 1,000+ results (capped count, pagination) and twelve priced cards, themed as the app is. */
function renderSearch(dir: 'ltr' | 'rtl') {
  stubApi((_m, path) => {
    if (path.startsWith('/loads?')) return { body: { message: 'ok', data: { items: Array.from({ length: 12 }, (_, i) => load(i)), nextCursor: null } } };
    // the count on its own request after the rows (issue 45)
    if (path.startsWith('/loads/count')) return { body: { message: 'ok', data: { total: 1000, totalCapped: true } } };
    if (path.startsWith('/equipmentTypes') || path.startsWith('/cities')) return { body: { message: 'ok', data: { items: [] } } };
    return undefined;
  });
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <DirectionProvider initialDirection={dir}>
      <MantineProvider theme={localizedTheme(i18n.t)}>
        <QueryClientProvider client={qc}>
          <MemoryRouter initialEntries={['/carriers/load-search?page=2']}>
            <LoadSearchPage />
            <div data-setting>
              <DigitSystemSetting />
            </div>
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>,
  );
}

/**
 * The text the page shows (not its style sheets, not the setting's own "٠١٢ / 012" labels);
 * identifiers such as "LD-001203" are codes, not numbers: left out.
 */
async function numbersShown() {
  await screen.findByTestId('load-row-LD-001211', {}, { timeout: 15_000 });
  // the pager comes with the count, on its own request after the rows (issue 45)
  const pagination = await screen.findByTestId('search-pagination', {}, { timeout: 15_000 });
  await waitFor(() => expect(pagination.textContent).not.toBe(''), { timeout: 15_000 });
  const shown = document.body.cloneNode(true) as HTMLElement;
  shown.querySelectorAll('style, script, [data-setting]').forEach((e) => e.remove());
  return {
    page: (shown.textContent ?? '').replace(/LD-\d+/g, ''),
    total: screen.getByTestId('search-total').textContent ?? '',
    pagination: pagination.textContent ?? '',
  };
}

describe('one digit system on a page (issue 9)', { timeout: 30_000 }, () => {
  it('Arabic by default writes prices, counts, distances, dates and page numbers in Arabic-Indic digits only', async () => {
    await i18n.changeLanguage('ar');
    renderSearch('rtl');
    const { page, total, pagination } = await numbersShown();
    expect(total).toMatch(ARABIC_INDIC);
    expect(pagination).toContain('٢');
    expect(page).toContain('١٢٬٥٠٠٫٥٠');
    expect(page).not.toMatch(WESTERN);
  });

  it('English by default writes every number in Western digits only', async () => {
    renderSearch('ltr');
    const { page, total, pagination } = await numbersShown();
    expect(total).toContain('1,000+');
    expect(pagination).toContain('2');
    expect(page).not.toMatch(ARABIC_INDIC);
  });

  it('the setting switches the whole page at once and is remembered', async () => {
    await i18n.changeLanguage('ar');
    renderSearch('rtl');
    await numbersShown();
    await act(async () => screen.getByRole('radio', { name: '012' }).click());
    const { page } = await numbersShown();
    expect(page).toContain('12,500.50');
    expect(page).not.toMatch(ARABIC_INDIC);
    expect(localStorage.getItem(DIGITS_KEY)).toBe('latn');
  });

  it('an English reader can choose Arabic-Indic digits', async () => {
    setDigitSystem('arab');
    renderSearch('ltr');
    const { page } = await numbersShown();
    expect(page).toContain('١٢٬٥٠٠٫٥٠');
    expect(page).not.toMatch(WESTERN);
  });
});
