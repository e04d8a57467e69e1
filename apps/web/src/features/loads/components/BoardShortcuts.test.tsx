import { afterEach, describe, expect, it } from 'vitest';
import { useRef } from 'react';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { useLocation } from 'react-router';
import i18n from '../../../i18n';
import { renderWithApp } from '../../../test/render';
import { BoardShortcuts } from './BoardShortcuts';

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

function Board() {
  const results = useRef<HTMLDivElement | null>(null);
  const filters = useRef<HTMLDivElement | null>(null);
  const { pathname, hash } = useLocation();
  return (
    <>
      <div ref={filters}>
        <input aria-label="pickup" data-testid="filter" />
      </div>
      <BoardShortcuts results={results} filters={filters} />
      <div ref={results}>
        {['a', 'b', 'c'].map((id) => (
          <a key={id} className="masar-card-link" href={`/carriers/loads/${id}`} data-testid={`row-${id}`}>
            {id}
          </a>
        ))}
      </div>
      <output data-testid="at">{pathname + hash}</output>
    </>
  );
}

/** A physical key press (code), as an Arabic keyboard layout sends it: the character differs, the key does not. */
const press = (code: string, key: string, shiftKey = false) => {
  act(() => void fireEvent.keyDown(document.documentElement, { code, key, shiftKey }));
};

/** Issue 23: keyboard shortcuts of the board. */
describe('BoardShortcuts', () => {
  it('J and K walk the rows, on an Arabic layout too', async () => {
    renderWithApp(<Board />, { path: '/carriers/load-search' });
    press('KeyJ', 'ت');
    expect(document.activeElement).toBe(screen.getByTestId('row-a'));
    press('KeyJ', 'ت');
    press('KeyJ', 'ت');
    press('KeyJ', 'ت');
    expect(document.activeElement).toBe(screen.getByTestId('row-c'));
    press('KeyK', 'ن');
    expect(document.activeElement).toBe(screen.getByTestId('row-b'));
  });

  it('B opens the focused load at its bid form; / goes to the filters', async () => {
    renderWithApp(<Board />, { path: '/carriers/load-search' });
    press('KeyJ', 'j');
    press('KeyJ', 'j');
    press('KeyB', 'b');
    expect(screen.getByTestId('at').textContent).toBe('/carriers/loads/b#bid');
    press('Slash', '/');
    expect(document.activeElement).toBe(screen.getByTestId('filter'));
  });

  it('? lists the shortcuts in the reader’s language; typing in a field triggers nothing', async () => {
    await i18n.changeLanguage('ar');
    renderWithApp(<Board />, { path: '/carriers/load-search', dir: 'rtl' });
    screen.getByTestId('filter').focus();
    fireEvent.keyDown(screen.getByTestId('filter'), { code: 'KeyJ', key: 'j' });
    expect(document.activeElement).toBe(screen.getByTestId('filter'));
    screen.getByTestId('filter').blur();
    press('Slash', '?', true);
    const list = await screen.findByTestId('shortcuts-list');
    expect(list.textContent).toContain('الشحنة التالية');
    expect(list.textContent).toContain('قدّم عرضاً على الشحنة');
  });
});
