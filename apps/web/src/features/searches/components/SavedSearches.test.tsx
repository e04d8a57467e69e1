import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import { SavedSearches } from './SavedSearches';

// a signed-in carrier (the session itself is not under test here)
vi.mock('../../../components/useViewer', () => ({
  useViewer: () => ({ isSignedIn: true, profile: { id: 'u1' }, accountType: 2, isLoading: false }),
}));

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const ok = (data: unknown, status = 200) => ({ status, body: { message: 'OK', data } });
const saved = {
  id: '01a201c4-0000-7000-8000-000000000001',
  kind: 'loads',
  name: 'Riyadh flatbeds',
  filters: { pickupCityId: 3, radius: 200, equipmentType: 'flatbed_trailer', sort: 'newest' },
  createdAt: '2026-11-01T10:00:00Z',
  updatedAt: '2026-11-01T10:00:00Z',
};

describe('saved and recent searches on a search page (issue 19)', { timeout: 30_000 }, () => {
  it('records the running search, lists saved and recent ones, and runs one in one click', async () => {
    const calls = stubApi((method, path) => {
      if (method === 'POST' && path === '/recentSearches') return ok({ id: saved.id, kind: 'loads', filters: {}, usedAt: '2026-11-01T10:00:00Z' }, 201);
      if (method === 'GET' && path.startsWith('/savedSearches')) return ok({ items: [saved] });
      if (method === 'GET' && path.startsWith('/recentSearches'))
        return ok({
          items: [{ id: '01a201c4-0000-7000-8000-000000000002', kind: 'loads', filters: { dropCityId: 18, sort: 'newest' }, usedAt: '2026-11-01T10:00:00Z' }],
        });
      if (method === 'GET' && (path.startsWith('/cities') || path.startsWith('/equipmentTypes')))
        return ok({ items: [{ id: 3, nameEn: 'Riyadh', nameAr: 'الرياض', lat: 24.7, lng: 46.7 }] });
      return undefined;
    });
    const onRun = vi.fn();
    renderWithApp(<SavedSearches kind="loads" filters={{ pickupCityId: 3, radius: 200, sort: 'newest' }} onRun={onRun} />, { path: '/carriers/load-search' });
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/recentSearches')).toBe(true));
    const rec = calls.find((c) => c.path === '/recentSearches')!;
    expect(rec.body).toEqual({ kind: 'loads', filters: { pickupCityId: 3, radius: 200, sort: 'newest' } });
    expect(rec.headers['idempotency-key']).toBeTruthy();

    fireEvent.click(screen.getByTestId('saved-searches-open'));
    expect(await screen.findByText('Riyadh flatbeds')).toBeTruthy();
    expect(await screen.findByText('Riyadh (200 km) · flatbed_trailer')).toBeTruthy();
    fireEvent.click(screen.getAllByTestId('saved-search-run')[0]);
    expect(onRun).toHaveBeenCalledWith(saved.filters);
  });

  it('saves the search under a name and shows "duplicate search exists" in the dialog', async () => {
    let n = 0;
    const calls = stubApi((method, path) => {
      if (method === 'POST' && path === '/recentSearches') return ok({}, 201);
      if (method === 'POST' && path === '/savedSearches')
        return n++ === 0 ? ok(saved, 201) : { status: 409, body: { message: 'Duplicate search exists.', code: 'DUPLICATE_SEARCH' } };
      if (method === 'GET') return ok({ items: [] });
      return undefined;
    });
    renderWithApp(<SavedSearches kind="trucks" filters={{ originCityId: 3, radius: 100, sort: 'deadhead' }} onRun={() => {}} />, {
      path: '/brokers/search-trucks',
    });
    const save = async () => {
      fireEvent.click(screen.getByTestId('save-search'));
      fireEvent.change(await screen.findByTestId('save-search-name'), { target: { value: 'East trucks' } });
      fireEvent.click(screen.getByTestId('save-search-submit'));
    };
    await save();
    await waitFor(() => expect(calls.filter((c) => c.path === '/savedSearches')).toHaveLength(1));
    expect(calls.find((c) => c.path === '/savedSearches')!.body).toEqual({
      kind: 'trucks',
      name: 'East trucks',
      filters: { originCityId: 3, radius: 100, sort: 'deadhead' },
    });
    await waitFor(() => expect(screen.queryByTestId('save-search-name')).toBeNull());
    await save();
    expect((await screen.findByTestId('save-search-error')).textContent).toBe('Duplicate search exists.');
  });
});
