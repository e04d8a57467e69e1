import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import i18n from '../i18n';
import { EMPTY_PLATE, normalizePlateDigits, parsePlateLetters, PlatePicker, plateLettersText, PLATE_LETTERS, type PlateValue } from './PlatePicker';

afterEach(cleanup);

describe('plate letter parsing', () => {
  it('has the 17 plate letters', () => {
    expect(PLATE_LETTERS).toHaveLength(17);
  });
  it('normalises aliases (أ→ا, هـ→ه, ي→ى) and reads Arabic right to left', () => {
    expect(parsePlateLetters('أ ب هـ')).toEqual({ right: 'ا', middle: 'ب', left: 'ه' });
    expect(parsePlateLetters('يإآ')).toEqual({ right: 'ى', middle: 'ا', left: 'ا' });
  });
  it('reads Latin left to right, any case', () => {
    expect(parsePlateLetters('abd')).toEqual({ left: 'ا', middle: 'ب', right: 'د' });
    expect(parsePlateLetters('J-X V')).toEqual({ left: 'ح', middle: 'ص', right: 'ى' });
  });
  it('ignores letters that are not on plates and keeps at most three', () => {
    expect(parsePlateLetters('ثABDK')).toEqual({ right: 'ا', middle: 'ب', left: 'د' });
    expect(parsePlateLetters('F')).toEqual({ left: '', middle: '', right: '' });
  });
  it('round-trips through the text form', () => {
    const v = { left: 'ا', middle: 'ب', right: 'د' };
    expect(parsePlateLetters(plateLettersText(v))).toEqual(v);
  });
  it('normalises Arabic-Indic and Persian digits, at most 4', () => {
    expect(normalizePlateDigits('١٢٣٤٥')).toBe('1234');
    expect(normalizePlateDigits('۷ 8-9')).toBe('789');
  });
});

function Harness({ dir = 'ltr', onValue }: { dir?: 'ltr' | 'rtl'; onValue: (v: PlateValue, type: number | null) => void }) {
  const [v, setV] = useState<PlateValue>(EMPTY_PLATE);
  const [type, setType] = useState<number | null>(null);
  onValue(v, type);
  return (
    <DirectionProvider initialDirection={dir}>
      <MantineProvider>
        <PlatePicker value={v} onChange={setV} plateType={type} onPlateTypeChange={setType} required />
      </MantineProvider>
    </DirectionProvider>
  );
}

describe('<PlatePicker>', () => {
  it('picks digits and letters by buttons, advancing left → middle → right', { timeout: 30_000 }, async () => {
    await i18n.changeLanguage('en');
    let last: PlateValue = EMPTY_PLATE;
    render(<Harness onValue={(v) => (last = v)} />);
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByTestId('plate-digits'), '٧٢a34');
    expect(last.digits).toBe('7234');
    await user.click(screen.getByTestId('plate-letter-A'));
    await user.click(screen.getByTestId('plate-letter-B'));
    await user.click(screen.getByTestId('plate-letter-D'));
    expect(last).toEqual({ digits: '7234', left: 'ا', middle: 'ب', right: 'د' });
    // Re-pick the middle letter.
    await user.click(screen.getByTestId('plate-slot-middle'));
    expect(screen.getByTestId('plate-slot-middle').getAttribute('aria-pressed')).toBe('true');
    await user.click(screen.getByTestId('plate-letter-V'));
    expect(last.middle).toBe('ى');
    const preview = screen.getByTestId('plate-preview');
    expect(within(preview).getByTestId('plate-preview-letters-latin').textContent).toBe('AVD');
    expect(within(preview).getByTestId('plate-preview-digits-ar').textContent).toBe('٧٢٣٤');
    expect(preview.getAttribute('dir')).toBe('ltr');
  });

  it('fills letters from pasted Arabic text with aliases, in RTL and Arabic', { timeout: 30_000 }, async () => {
    await i18n.changeLanguage('ar');
    let last: PlateValue = EMPTY_PLATE;
    render(<Harness dir="rtl" onValue={(v) => (last = v)} />);
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('plate-letters-input'));
    await user.paste('هـ ي أ');
    expect(last).toMatchObject({ right: 'ه', middle: 'ى', left: 'ا' });
    expect(screen.getByText('حروف اللوحة')).toBeTruthy();
    expect(screen.getByTestId('plate-letter-H').getAttribute('aria-label')).toContain('ه');
    await i18n.changeLanguage('en');
  });
});
