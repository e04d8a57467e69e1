import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Link, MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { usePageTitle } from '../../lib/pageTitle';
import { useRouteFocus } from './useRouteFocus';

/** Issue 23: a distinct tab title per page in its language; focus to the heading after navigation. */
afterEach(() => cleanup());

function Later() {
  // a lazy page / data: the h1 comes after a moment
  const [ready, setReady] = useState(false);
  setTimeout(() => setReady(true), 20);
  return ready ? <h1>Search loads</h1> : <h2>Loading…</h2>;
}
function Details({ lang }: { lang: string }) {
  usePageTitle([lang === 'ar' ? 'الرياض ← جدة' : 'Riyadh → Jeddah', 'LD-001305'], lang === 'ar' ? 'مسار' : 'Masar');
  return <h1>{lang === 'ar' ? 'الشحنة LD-001305' : 'Load LD-001305'}</h1>;
}
function Shell({ lang }: { lang: string }) {
  const { pathname } = useLocation();
  useRouteFocus(pathname, lang, lang === 'ar' ? 'مسار' : 'Masar');
  return (
    <>
      <nav>
        <Link to="/search">search</Link>
        <Link to="/details">details</Link>
        <Link to="/offers">offers</Link>
      </nav>
      <main id="main">
        <Routes>
          <Route path="/" element={<h1>{lang === 'ar' ? 'الرئيسية' : 'Home'}</h1>} />
          <Route path="/search" element={<Later />} />
          <Route path="/details" element={<Details lang={lang} />} />
          <Route path="/offers" element={<h1>{lang === 'ar' ? 'العروض' : 'Offers'}</h1>} />
        </Routes>
      </main>
    </>
  );
}

describe('useRouteFocus', () => {
  it('titles each page by its heading, leaves focus alone on the first load, then moves it to the h1', async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter initialEntries={['/']}>
        <Shell lang="en" />
      </MemoryRouter>,
    );
    expect(document.title).toBe('Home · Masar');
    expect(document.activeElement).toBe(document.body);

    await user.click(screen.getByText('search'));
    // the loading h2 first, then the page's h1 once it arrives: focus ends on the h1
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Search loads' })));
    expect(document.title).toBe('Search loads · Masar');
    expect(document.activeElement?.getAttribute('tabindex')).toBe('-1');

    await user.click(screen.getByText('details'));
    expect(document.title).toBe('Riyadh → Jeddah · LD-001305 · Masar');
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Load LD-001305' }));

    await user.click(screen.getByText('offers'));
    expect(document.title).toBe('Offers · Masar');
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Offers' }));
  });

  it('in Arabic: Arabic titles, the page title a page sets itself', async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter initialEntries={['/offers']}>
        <Shell lang="ar" />
      </MemoryRouter>,
    );
    expect(document.title).toBe('العروض · مسار');
    await user.click(screen.getByText('details'));
    expect(document.title).toBe('الرياض ← جدة · LD-001305 · مسار');
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
  });

  it('a language switch retitles the page but does not move focus', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { rerender } = render(
      <MemoryRouter initialEntries={['/offers']}>
        <Shell lang="en" />
      </MemoryRouter>,
    );
    expect(document.title).toBe('Offers · Masar');
    act(() => {
      rerender(
        <MemoryRouter initialEntries={['/offers']}>
          <Shell lang="ar" />
        </MemoryRouter>,
      );
    });
    expect(document.title).toBe('العروض · مسار');
    expect(document.activeElement).toBe(document.body);
    vi.useRealTimers();
  });
});
