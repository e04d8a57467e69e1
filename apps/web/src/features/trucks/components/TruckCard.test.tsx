import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import i18n, { loadNamespaces } from '../../../i18n';
import { truckFixture } from '../../../test/fixtures';
import { renderWithApp, stubApi } from '../../../test/render';
import { TruckCard } from './TruckCard';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const ltl = truckFixture({
  loadType: 'LTL',
  pallets: 6,
  spaceCm: 450,
  company: 'Qahtani Transport Co.',
  vehicle: { id: '01a21836-0000-7000-8000-0000000000a1', plate: '1234 ABD', vehicleType: 'lorry', waslStatus: 'not_submitted', trailer: null },
});

/** Issue 47: no raw code on the truck card; LTL space shown after posting; Latin names isolated. */
describe('TruckCard', () => {
  it('in Arabic shows the load type, WASL status and free LTL space in words and Arabic digits, never a code', async () => {
    stubApi(() => undefined);
    await i18n.changeLanguage('ar');
    await loadNamespaces(['trucks']);
    renderWithApp(<TruckCard truck={ltl} />, { dir: 'rtl', path: '/carriers/search-trucks' });
    const card = screen.getByTestId('truck-card');
    const text = card.textContent ?? '';
    expect(text).toContain('حمولة جزئية');
    expect(text).toContain('وصل: لم يُقدَّم');
    expect(text).toContain('٦ منصات متاحة');
    expect(text).toContain('٤٫٥ م من سطح الشاحنة متاحة');
    expect(text).not.toMatch(/not_submitted|LTL/);
    // the Latin company name sits in its own bidi island, so its period stays at its end
    expect(card.querySelector('bdi')?.textContent).toBe('Qahtani Transport Co.');
  });

  it('in English says the same in English, and shows no LTL space on a full truckload', async () => {
    stubApi(() => undefined);
    await loadNamespaces(['trucks']);
    const { unmount } = renderWithApp(<TruckCard truck={ltl} />);
    expect(screen.getByTestId('truck-card').textContent).toContain('WASL: not submitted');
    expect(screen.getByTestId('truck-card').textContent).toContain('6 free pallets');
    expect(screen.getByTestId('truck-card').textContent).toContain('4.5 m free deck');
    unmount();
    renderWithApp(<TruckCard truck={{ ...ltl, loadType: 'FTL' }} />);
    expect(screen.getByTestId('truck-card').textContent).not.toContain('free pallets');
  });
});
