import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import i18n, { loadNamespaces } from '../../../i18n';
import { truckFixture } from '../../../test/fixtures';
import { renderWithApp, stubApi } from '../../../test/render';
import SearchTrucksPage from './SearchTrucksPage';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const truck = truckFixture();

/** The truck board's API: one page of one truck, its count ("1,000+"), no saved or recent search. */
function stub() {
  return stubApi((_method, path) => {
    if (path.startsWith('/searchTrucks/count')) return { body: { message: 'OK', data: { total: 1000, totalCapped: true } } };
    if (path.startsWith('/searchTrucks')) return { body: { message: 'OK', data: { items: [truck], nextCursor: null } } };
    if (path.startsWith('/equipmentTypes')) return { body: { message: 'OK', data: { items: [] } } };
    if (path.startsWith('/cities')) return { body: { message: 'OK', data: { items: [], total: 0 } } };
    // the page's saved and recent searches (SavedSearches): none
    if (path.startsWith('/savedSearches') || path.startsWith('/recentSearches')) return { body: { message: 'OK', data: { items: [] } } };
    return undefined;
  });
}

describe('the truck board count (issue 45)', () => {
  it('asks GET /searchTrucks/count with the filters only, after the page, and shows "1,000+" in English and Arabic', { timeout: 60_000 }, async () => {
    await loadNamespaces(['trucks']);
    const calls = stub();
    renderWithApp(<SearchTrucksPage />, { path: '/shippers/search-trucks?equipmentType=flatbed_trailer&sort=rate' });
    await waitFor(() => expect(screen.getByTestId('truck-search-total').textContent).toBe('1,000+ trucks found'));
    const page = calls.findIndex((c) => c.path.startsWith('/searchTrucks?'));
    const count = calls.findIndex((c) => c.path.startsWith('/searchTrucks/count?'));
    expect(page).toBeGreaterThanOrEqual(0);
    expect(count).toBeGreaterThan(page);
    const q = new URLSearchParams(calls[count].path.split('?')[1]);
    expect(q.get('equipmentType')).toBe('flatbed_trailer');
    expect(q.has('sort') || q.has('limit') || q.has('cursor')).toBe(false);
    await i18n.changeLanguage('ar');
    await waitFor(() => expect(screen.getByTestId('truck-search-total').textContent).toMatch(/^عدد الشاحنات: /));
    expect(i18n.t('trucks:search.counting')).toBe('جارٍ عدّ الشاحنات…');
  });
});
