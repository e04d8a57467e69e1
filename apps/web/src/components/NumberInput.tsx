import type { KeyboardEvent } from 'react';
import { NumberInput as MantineNumberInput, type NumberInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NumberFormatBase, useNumericFormat, type ChangeMeta, type NumericFormatProps } from 'react-number-format';
import { digitSystem, normalizeDigits } from '../lib/digits';

/** Arabic decimal (U+066B) and thousands (U+066C) separators: what Intl writes with Arabic-Indic digits. */
const DECIMAL = '\u066b';
const GROUP = '\u066c';

/**
 * A Western formatted number ("12,500.5") written in Arabic-Indic digits and separators
 * ("١٢٬٥٠٠٫٥"), character for character: the same length, so every caret position and change
 * range react-number-format computes on one string holds on the other.
 */
export const toArabIndic = (s: string) => s.replace(/[0-9.,]/g, (c) => (c === '.' ? DECIMAL : c === ',' ? GROUP : String.fromCharCode(0x660 + Number(c))));

/** What is shown or typed, read back as Western (Arabic-Indic and Persian digits, ٫ and ٬); also length-preserving. */
export const fromArabIndic = (s: string) => normalizeDigits(s).replace(/\u066c/g, ',');

/**
 * react-number-format's NumericFormat (what Mantine's NumberInput renders) with every number
 * written in the reader's digit system (lib/digits.ts). The numeric engine is the library's own
 * (`useNumericFormat`: parsing, decimal scale, separators, negation); this only translates at its
 * edges — what it writes goes out through `toArabIndic`, what the input holds comes back through
 * `fromArabIndic` — so the value handed to Mantine, and through it to forms, is a Western numeric
 * string as before. Typed Arabic-Indic, Persian and Western digits are all read, in both systems.
 */
export function DigitNumericFormat(props: NumericFormatProps) {
  // subscribes to `languageChanged`, which the digit setting emits (setDigitSystem)
  const { i18n } = useTranslation();
  const arab = digitSystem(i18n.language) === 'arab';
  const base = useNumericFormat(props);
  const show = arab ? toArabIndic : (s: string) => s;
  const read = fromArabIndic;
  const format = base.format!;
  const removeFormatting = base.removeFormatting!;
  const decimalKeys = [...(props.allowedDecimalSeparators ?? []), props.decimalSeparator ?? '.', DECIMAL];

  // The library moves the caret over its own separators (',' and '.') on Backspace, Delete and a
  // typed decimal separator; shown as ٬ and ٫ they need the same moves.
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const el = e.currentTarget;
    const at = el.selectionStart;
    if (arab && at !== null && at === el.selectionEnd) {
      const v = el.value;
      const move = (to: number) => el.setSelectionRange(to, to);
      if (e.key === 'Backspace' && v[at - 1] === GROUP) move(at - 1);
      else if (e.key === 'Delete' && v[at] === GROUP) move(at + 1);
      else if (decimalKeys.includes(e.key) && v[at] === DECIMAL) move(at + 1);
      else if (props.decimalScale && props.fixedDecimalScale) {
        // the separator of a fixed decimal scale cannot be deleted
        if (e.key === 'Backspace' && v[at - 1] === DECIMAL) {
          move(at - 1);
          e.preventDefault();
        } else if (e.key === 'Delete' && v[at] === DECIMAL) e.preventDefault();
      }
    }
    base.onKeyDown?.(e);
  };

  return (
    <NumberFormatBase
      {...base}
      value={typeof base.value === 'string' ? show(base.value) : base.value}
      format={(numStr) => show(format(numStr))}
      removeFormatting={(value, meta?: ChangeMeta) => removeFormatting(read(value), meta && { ...meta, lastValue: read(meta.lastValue) })}
      getCaretBoundary={(formatted) => base.getCaretBoundary!(read(formatted))}
      isValidInputCharacter={(c) => base.isValidInputCharacter!(read(c))}
      isCharacterSame={(c) =>
        base.isCharacterSame!({ ...c, currentValue: read(c.currentValue), lastValue: read(c.lastValue), formattedValue: read(c.formattedValue) })
      }
      // NumericFormat keeps its own (Western) formatted value: hand it back Western
      onValueChange={(values, source) => base.onValueChange?.({ ...values, formattedValue: read(values.formattedValue) }, source)}
      onKeyDown={onKeyDown}
    />
  );
}

/**
 * The app's number input: Mantine's NumberInput (min/max/step, arrows, clamping, the value as a
 * number) whose text is written in the reader's digit system — Arabic-Indic digits with the Arabic
 * separators (١٢٬٥٠٠٫٥) or Western ones — and which reads Arabic-Indic, Persian or Western digits
 * as typed or pasted. Import this, never Mantine's (eslint `no-restricted-imports`).
 *
 * Mantine renders NumericFormat through InputBase's `component` and spreads the other props after
 * it, so a `component` given here replaces it (not in NumberInput's types, hence the spread);
 * components/NumberInput.test.tsx fails if a Mantine upgrade stops honouring it.
 */
export function NumberInput(props: NumberInputProps) {
  return <MantineNumberInput {...props} {...{ component: DigitNumericFormat }} />;
}
