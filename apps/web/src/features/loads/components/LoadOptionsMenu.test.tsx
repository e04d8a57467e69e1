import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import type { Load, LoadOption } from '@masar/shared';
import i18n from '../../../i18n';
import { loadFixture } from '../../../test/fixtures';
import { renderWithApp, stubApi } from '../../../test/render';
import { BookmarkButton, LoadOptionsMenu } from './LoadOptionsMenu';

beforeAll(async () => {
  await i18n.loadNamespaces('loads');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ID = '01a201b8-d4ce-74b2-b96a-76f14f4c9341';
const load = (options: LoadOption[], over: Partial<Load> = {}): Load => loadFixture({ id: ID, options, ...over });

function Where() {
  const l = useLocation();
  return <div data-testid="where">{l.pathname + l.search}</div>;
}
const app = (ui: React.ReactNode) =>
  renderWithApp(
    <Routes>
      <Route
        path="*"
        element={
          <>
            {ui}
            <Where />
          </>
        }
      />
    </Routes>,
    { path: '/shippers/my-loads' },
  );

describe('LoadOptionsMenu (More Options = load.options)', { timeout: 20_000 }, () => {
  it('shows exactly the server options, in order', async () => {
    app(<LoadOptionsMenu load={load(['edit', 'extend_dates', 'unpost', 'duplicate', 'cancel'])} />);
    await userEvent.click(screen.getByTestId('load-actions-LD-000777'));
    // the file's first menu opens cold (its portal, transition and strings): on a loaded 2-core CI
    // machine that overran the 5 s findBy bound once in two full runs (the button was already
    // expanded). The wait still ends as soon as the items are there.
    const items = await screen.findAllByRole('menuitem', {}, { timeout: 15_000 });
    expect(items.map((i) => i.getAttribute('data-testid'))).toEqual([
      'option-edit',
      'option-extend_dates',
      'option-unpost',
      'option-duplicate',
      'option-cancel',
    ]);
    expect(items.map((i) => i.textContent)).toEqual(['Edit', 'Extend dates', 'Unpost', 'Duplicate', 'Cancel shipment']);
  });

  it('a trip option opens the details page with ?action=, edit opens the form', async () => {
    app(<LoadOptionsMenu load={load(['assign', 'track'], { status: 'unassigned' })} />);
    await userEvent.click(screen.getByTestId('load-actions-LD-000777'));
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual(['Assign truck', 'Track']);
    await userEvent.click(screen.getByTestId('option-assign'));
    expect(screen.getByTestId('where').textContent).toBe(`/shippers/loads/${ID}?action=assign`);
    cleanup();
    app(<LoadOptionsMenu load={load(['edit'])} />);
    await userEvent.click(screen.getByTestId('load-actions-LD-000777'));
    await userEvent.click(await screen.findByTestId('option-edit'));
    expect(screen.getByTestId('where').textContent).toBe(`/shippers/post-load?edit=${ID}`);
  });

  it('extend dates opens its dialog with the 30-day limit and both dates', async () => {
    app(<LoadOptionsMenu load={load(['extend_dates'])} />);
    await userEvent.click(screen.getByTestId('load-actions-LD-000777'));
    await userEvent.click(await screen.findByTestId('option-extend_dates'));
    expect(await screen.findByText('Each date can move later by at most 30 days.')).toBeTruthy();
    expect(screen.getByText('New pickup date')).toBeTruthy();
    expect(screen.getByText('New delivery date')).toBeTruthy();
  });
});

describe('BookmarkButton', () => {
  it('bookmarks with POST and un-bookmarks with DELETE', async () => {
    const calls = stubApi((method, path) => (path === `/loads/${ID}/bookmark` ? { body: { message: 'ok', data: null } } : undefined));
    app(<BookmarkButton load={load([])} />);
    await userEvent.click(screen.getByRole('button', { name: 'Bookmark' }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain(`POST /loads/${ID}/bookmark`));
    cleanup();
    app(<BookmarkButton load={load([], { bookmarked: true })} />);
    await userEvent.click(screen.getByRole('button', { name: 'Remove bookmark' }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain(`DELETE /loads/${ID}/bookmark`));
  });
});
