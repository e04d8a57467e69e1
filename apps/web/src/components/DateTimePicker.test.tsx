import { useState } from 'react';
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../i18n';
import { setDigitSystem } from '../lib/digits';
import { renderWithApp } from '../test/render';
import { DateTimePicker, shownValue, TimePicker } from './DateTimePicker';

afterEach(async () => {
  cleanup();
  setDigitSystem(null);
  await i18n.changeLanguage('en');
});

const user = () => userEvent.setup({ delay: null });
const field = (name: string) => screen.getByRole<HTMLInputElement>('spinbutton', { name });
/** What the reader sees in the hours and minutes fields. */
const shown = (hours: string, minutes: string) => [shownValue(field(hours)), shownValue(field(minutes))];

/** A form field holding the TimePicker's value, as a form would. */
function TimeForm({ initial = '', onValue }: { initial?: string; onValue: (v: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <TimePicker
      value={value}
      onChange={(v) => {
        setValue(v);
        onValue(v);
      }}
    />
  );
}

describe('TimePicker in Arabic-Indic digits (Arabic, default setting)', () => {
  it('shows a set value as ٠٨ : ٣٠, fields named in Arabic; what is read back is Western', async () => {
    await i18n.changeLanguage('ar');
    renderWithApp(<TimeForm initial="08:30:00" onValue={() => {}} />, { dir: 'rtl' });
    expect(shown('الساعات', 'الدقائق')).toEqual(['٠٨', '٣٠']);
    expect(field('الساعات').value).toBe('08');
    expect(field('الساعات').getAttribute('aria-valuenow')).toBe('8');
  });

  it.each([
    ['Arabic-Indic', '٠٨٣٠'],
    ['Western', '0830'],
    ['Persian', '۰۸۳۰'],
  ])('typed %s "0830" moves from hours to minutes and gives 08:30', async (_name, typed) => {
    await i18n.changeLanguage('ar');
    const onValue = vi.fn();
    renderWithApp(<TimeForm onValue={onValue} />, { dir: 'rtl' });
    const u = user();
    await u.click(field('الساعات'));
    await u.keyboard(typed.slice(0, 2));
    expect(document.activeElement).toBe(field('الدقائق'));
    await u.keyboard(typed.slice(2));
    expect(onValue).toHaveBeenLastCalledWith('08:30');
    expect(shown('الساعات', 'الدقائق')).toEqual(['٠٨', '٣٠']);
  });

  it('steps with the arrows, clears with Backspace and goes back to the hours', async () => {
    await i18n.changeLanguage('ar');
    const onValue = vi.fn();
    renderWithApp(<TimeForm initial="08:30:00" onValue={onValue} />, { dir: 'rtl' });
    const u = user();
    await u.click(field('الساعات'));
    await u.keyboard('{ArrowUp}{ArrowUp}');
    expect(shownValue(field('الساعات'))).toBe('١٠');
    expect(onValue).toHaveBeenLastCalledWith('10:30');
    await u.keyboard('{ArrowDown}');
    expect(shownValue(field('الساعات'))).toBe('٠٩');
    await u.tab(); // Tab leaves the time picker: the minutes are reached by typing or the arrow keys
    expect(document.activeElement).not.toBe(field('الدقائق'));
    await u.click(field('الدقائق'));
    await u.keyboard('{Backspace}');
    expect(shownValue(field('الدقائق'))).toBe('');
    await u.keyboard('{Backspace}');
    expect(document.activeElement).toBe(field('الساعات'));
  });

  it('reads a pasted ٠٨:٣٠', async () => {
    await i18n.changeLanguage('ar');
    const onValue = vi.fn();
    renderWithApp(<TimeForm onValue={onValue} />, { dir: 'rtl' });
    const u = user();
    await u.click(field('الساعات'));
    await u.paste('٠٨:٣٠');
    expect(onValue).toHaveBeenLastCalledWith('08:30');
    expect(shown('الساعات', 'الدقائق')).toEqual(['٠٨', '٣٠']);
  });

  it('is rewritten at once when the digit setting changes', async () => {
    await i18n.changeLanguage('ar');
    renderWithApp(<TimeForm initial="08:30:00" onValue={() => {}} />, { dir: 'rtl' });
    act(() => setDigitSystem('latn'));
    expect(shown('الساعات', 'الدقائق')).toEqual(['08', '30']);
    act(() => setDigitSystem('arab'));
    expect(shown('الساعات', 'الدقائق')).toEqual(['٠٨', '٣٠']);
  });
});

describe('TimePicker in Western digits (English)', () => {
  it('shows 08 : 30 and reads typed Western or Arabic-Indic digits', async () => {
    const onValue = vi.fn();
    renderWithApp(<TimeForm initial="08:30:00" onValue={onValue} />);
    expect(shown('Hours', 'Minutes')).toEqual(['08', '30']);
    const u = user();
    await u.click(field('Hours'));
    await u.keyboard('١٠٤٥');
    expect(onValue).toHaveBeenLastCalledWith('10:45');
    expect(shown('Hours', 'Minutes')).toEqual(['10', '45']);
  });
});

describe('DateTimePicker', () => {
  /** Open the picker, choose the 10th, type `time` into the hours and confirm; the value handed to the form. */
  async function pick(time: string, names: { hours: string; confirm: string }) {
    const onChange = vi.fn();
    // jsdom has no layout: the dropdown would be hidden as detached from its (zero-sized) input
    const popoverProps = { hideDetached: false, transitionProps: { duration: 0 } };
    renderWithApp(<DateTimePicker label="pickup" defaultDate="2026-12-01" onChange={onChange} popoverProps={popoverProps} />, {
      dir: i18n.language === 'ar' ? 'rtl' : 'ltr',
    });
    const u = user();
    await u.click(screen.getByRole('button', { name: 'pickup' }));
    await u.click(await screen.findByRole('button', { name: /^10 December 2026$/ }, { timeout: 5000 }));
    await u.click(field(names.hours));
    await u.keyboard(time);
    return { onChange, confirm: () => u.click(screen.getByRole('button', { name: names.confirm })) };
  }

  it('in Arabic: the fields show ٠٨ : ٣٠ for a typed ٠٨٣٠ and the form gets 08:30', async () => {
    await i18n.changeLanguage('ar');
    const { onChange, confirm } = await pick('٠٨٣٠', { hours: 'الساعات', confirm: 'تأكيد التاريخ والوقت' });
    expect(shown('الساعات', 'الدقائق')).toEqual(['٠٨', '٣٠']);
    await confirm();
    expect(onChange).toHaveBeenLastCalledWith('2026-12-10 08:30:00');
  });

  it('in English: 0830 shows 08 : 30 and the form gets 08:30', async () => {
    const { onChange, confirm } = await pick('0830', { hours: 'Hours', confirm: 'Confirm date and time' });
    expect(shown('Hours', 'Minutes')).toEqual(['08', '30']);
    await confirm();
    expect(onChange).toHaveBeenLastCalledWith('2026-12-10 08:30:00');
  });
});
