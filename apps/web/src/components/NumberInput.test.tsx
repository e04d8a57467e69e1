import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../i18n';
import { setDigitSystem } from '../lib/digits';
import { renderWithApp } from '../test/render';
import { fromArabIndic, NumberInput, toArabIndic } from './NumberInput';

afterEach(async () => {
  cleanup();
  setDigitSystem(null);
  await i18n.changeLanguage('en');
});

const input = () => screen.getByRole<HTMLInputElement>('textbox');
const user = () => userEvent.setup({ delay: null });
/** The last value handed to onChange. */
const last = (fn: ReturnType<typeof vi.fn>) => fn.mock.calls.at(-1)?.[0];

async function arabic() {
  await i18n.changeLanguage('ar'); // digits follow the language: Arabic-Indic
}

describe('toArabIndic / fromArabIndic', () => {
  it('write digits and separators one character for one, and read them back', () => {
    expect(toArabIndic('-12,500.75')).toBe('-١٢٬٥٠٠٫٧٥');
    expect(fromArabIndic('-١٢٬٥٠٠٫٧٥')).toBe('-12,500.75');
    expect(fromArabIndic('۱۲۳')).toBe('123');
  });
});

describe('NumberInput in Arabic-Indic digits (Arabic, default setting)', () => {
  it('shows a value in Arabic-Indic digits, grouped with ٬ when asked', async () => {
    await arabic();
    renderWithApp(<NumberInput value={12500} thousandSeparator="," onChange={() => {}} />, { dir: 'rtl' });
    expect(input().value).toBe('١٢٬٥٠٠');
  });

  it('shows an ungrouped value and a decimal with ٫', async () => {
    await arabic();
    renderWithApp(<NumberInput value={12500} onChange={() => {}} />, { dir: 'rtl' });
    expect(input().value).toBe('١٢٥٠٠');
    cleanup();
    renderWithApp(<NumberInput value={4500.5} onChange={() => {}} />, { dir: 'rtl' });
    expect(input().value).toBe('٤٥٠٠٫٥');
  });

  it.each([
    ['Arabic-Indic', '٣٤'],
    ['Western', '34'],
    ['Persian', '۳۴'],
  ])('reads typed %s digits as the number 34', async (_name, typed) => {
    await arabic();
    const onChange = vi.fn();
    renderWithApp(<NumberInput onChange={onChange} />, { dir: 'rtl' });
    await user().type(input(), typed);
    expect(last(onChange)).toBe(34);
    expect(typeof last(onChange)).toBe('number');
    expect(input().value).toBe('٣٤');
  });

  it('keeps the caret at the end while typing a grouped number, whatever the digits typed', async () => {
    await arabic();
    const onChange = vi.fn();
    renderWithApp(<NumberInput onChange={onChange} thousandSeparator="," decimalScale={2} />, { dir: 'rtl' });
    await user().type(input(), '1234٥٦7٫٥');
    expect(input().value).toBe('١٬٢٣٤٬٥٦٧٫٥');
    expect(last(onChange)).toBe(1234567.5);
    expect(input().selectionStart).toBe(input().value.length);
  });

  it('reads a typed Western decimal point', async () => {
    await arabic();
    const onChange = vi.fn();
    renderWithApp(<NumberInput onChange={onChange} decimalScale={2} />, { dir: 'rtl' });
    await user().type(input(), '12.25');
    expect(input().value).toBe('١٢٫٢٥');
    expect(last(onChange)).toBe(12.25);
  });

  it('reads a pasted Arabic-Indic number with its separators', async () => {
    await arabic();
    const onChange = vi.fn();
    renderWithApp(<NumberInput onChange={onChange} thousandSeparator="," decimalScale={2} />, { dir: 'rtl' });
    const u = user();
    await u.click(input());
    await u.paste('١٢٬٥٠٠٫٥');
    expect(last(onChange)).toBe(12500.5);
    expect(input().value).toBe('١٢٬٥٠٠٫٥');
  });

  it('deletes the digit before a ٬ on Backspace, not the separator', async () => {
    await arabic();
    const onChange = vi.fn();
    renderWithApp(<NumberInput defaultValue={12345} onChange={onChange} thousandSeparator="," />, { dir: 'rtl' });
    expect(input().value).toBe('١٢٬٣٤٥');
    await user().type(input(), '{Backspace}', { initialSelectionStart: 3, initialSelectionEnd: 3 });
    expect(input().value).toBe('١٬٣٤٥');
    expect(last(onChange)).toBe(1345);
  });

  it('steps with the arrow keys and clamps to max on blur, in Arabic-Indic digits', async () => {
    await arabic();
    const onChange = vi.fn();
    renderWithApp(<NumberInput defaultValue={5} min={1} max={50} onChange={onChange} />, { dir: 'rtl' });
    const u = user();
    await u.click(input());
    await u.keyboard('{ArrowUp}{ArrowUp}');
    expect(last(onChange)).toBe(7);
    expect(input().value).toBe('٧');
    await u.keyboard('{ArrowDown}');
    expect(last(onChange)).toBe(6);
    await u.clear(input());
    await u.type(input(), '٩٩');
    expect(last(onChange)).toBe(99);
    fireEvent.blur(input());
    expect(last(onChange)).toBe(50);
    expect(input().value).toBe('٥٠');
  });

  it('follows a change of the setting at once', async () => {
    await arabic();
    renderWithApp(<NumberInput value={12500} thousandSeparator="," onChange={() => {}} />, { dir: 'rtl' });
    expect(input().value).toBe('١٢٬٥٠٠');
    act(() => setDigitSystem('latn'));
    expect(input().value).toBe('12,500');
    act(() => setDigitSystem('arab'));
    expect(input().value).toBe('١٢٬٥٠٠');
  });
});

describe('NumberInput in Western digits (English)', () => {
  it('shows Western digits', () => {
    renderWithApp(<NumberInput value={12500} onChange={() => {}} />);
    expect(input().value).toBe('12500');
    cleanup();
    renderWithApp(<NumberInput value={12500} thousandSeparator="," onChange={() => {}} />);
    expect(input().value).toBe('12,500');
  });

  it.each([
    ['Western', '34'],
    ['Arabic-Indic', '٣٤'],
  ])('reads typed %s digits as 34 and shows them Western', async (_name, typed) => {
    const onChange = vi.fn();
    renderWithApp(<NumberInput onChange={onChange} />);
    await user().type(input(), typed);
    expect(last(onChange)).toBe(34);
    expect(input().value).toBe('34');
  });

  it('shows Arabic-Indic digits in English when the reader chose them', () => {
    setDigitSystem('arab');
    renderWithApp(<NumberInput value={12500} onChange={() => {}} />);
    expect(input().value).toBe('١٢٥٠٠');
  });
});
