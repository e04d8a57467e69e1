import {
  DateTimePicker as MantineDateTimePicker,
  TimePicker as MantineTimePicker,
  type DatePickerType,
  type DateTimePickerProps,
  type TimePickerPasteSplit,
  type TimePickerProps,
} from '@mantine/dates';
import { useMergedRef } from '@mantine/hooks';
import i18n from 'i18next';
import { useTranslation } from 'react-i18next';
import { inDigitSystem, normalizeDigits } from '../lib/digits';

/*
 * The hour, minute and second fields of Mantine's TimePicker (also inside DateTimePicker) are its
 * internal SpinInput: a controlled <input> whose text is `padTime(value)`, with no formatter prop
 * and `value`/`onChange` set by TimePicker itself (@mantine/dates 9, SpinInput.mjs). The only hook
 * Mantine gives on that element is its ref (`hoursRef`, `minutesRef`, `secondsRef`), so the digits
 * are translated on the element, one character for one, as components/NumberInput does for number
 * inputs:
 * - what React (for Mantine) writes to `input.value` is painted in the reader's digit system;
 * - what is read from `input.value` (React's change detection, SpinInput's parser, TimePicker's
 *   blur handler) is Western, whatever was typed — Arabic-Indic, Persian or Western;
 * - what the reader types is repainted at once (an `input` listener, before React sees the event).
 * Mantine's keyboard handling (typing "0830" moves hours → minutes, arrows, Home/End, Backspace,
 * Tab order) runs unchanged on the Western value.
 */

const native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!;
/** The text the reader sees (the element's own value, under our accessor). */
export const shownValue = (el: HTMLInputElement) => native.get!.call(el) as string;

const patched = new WeakSet<HTMLInputElement>();
const fields = new Set<HTMLInputElement>();

/** Rewrite the field's text in the digit system in force, keeping the caret (both strings have the same length). */
function paint(el: HTMLInputElement) {
  const text = shownValue(el);
  const next = inDigitSystem(normalizeDigits(text));
  if (next === text) return;
  const focused = el.ownerDocument.activeElement === el;
  const { selectionStart: start, selectionEnd: end, selectionDirection: dir } = el;
  native.set!.call(el, next);
  if (focused && start !== null && end !== null) el.setSelectionRange(start, end, dir ?? undefined);
}

// the digit setting emits `languageChanged` (lib/digits.ts setDigitSystem): repaint every field
let listening = false;
const repaintAll = () =>
  fields.forEach((el) => {
    if (el.isConnected) paint(el);
    else fields.delete(el);
  });

/**
 * Ref of a time field (hours, minutes, seconds): its `value` accessor reads Western digits and
 * writes the reader's digit system; React's own value tracker (the accessor it put on the element)
 * still gets every write, in Western digits, so React's view of the value is unchanged.
 */
export function digitField(el: HTMLInputElement | null) {
  if (!el) return;
  if (!patched.has(el)) {
    patched.add(el);
    const own = Object.getOwnPropertyDescriptor(el, 'value') ?? native;
    Object.defineProperty(el, 'value', {
      configurable: true,
      enumerable: true,
      get() {
        return normalizeDigits(own.get!.call(this) as string);
      },
      set(v: string) {
        own.set!.call(this, v);
        paint(this as HTMLInputElement);
      },
    });
    el.addEventListener('input', () => paint(el));
  }
  if (!listening) {
    listening = true;
    i18n.on('languageChanged', repaintAll);
  }
  fields.add(el);
  paint(el);
  return () => {
    fields.delete(el);
  };
}

/** Pasted "08:30" (or "٠٨:٣٠", "۰۸:۳۰") → the fields: Mantine's default split, reading any digits. */
export const pasteTime: TimePickerPasteSplit = ({ time, format, amPmLabels }) => {
  const text = normalizeDigits(time).trim();
  if (text === '') return { hours: null, minutes: null, seconds: null, amPm: null };
  const [hours = null, minutes = null, seconds = null] = text.split(':').map(Number);
  if (format !== '12h' || hours === null) return { hours, minutes, seconds, amPm: null };
  return { hours: hours % 12 || 12, minutes, seconds, amPm: hours >= 12 ? amPmLabels.pm : amPmLabels.am };
};

/** A TimePicker's props with its fields in the reader's digits and named in the page's language. */
function useTimeFields<P extends TimePickerProps>(props: P | undefined): P {
  const { t } = useTranslation('common');
  const hoursRef = useMergedRef(digitField, props?.hoursRef);
  const minutesRef = useMergedRef(digitField, props?.minutesRef);
  const secondsRef = useMergedRef(digitField, props?.secondsRef);
  return {
    hoursInputLabel: t('a11y.hours'),
    minutesInputLabel: t('a11y.minutes'),
    secondsInputLabel: t('a11y.seconds'),
    pasteSplit: pasteTime,
    ...props,
    hoursRef,
    minutesRef,
    secondsRef,
  } as P;
}

/**
 * The app's date-and-time picker: Mantine's DateTimePicker whose hour and minute fields show the
 * reader's digit system and read Arabic-Indic, Persian or Western digits; the fields and the
 * confirm button are named in the page's language. The calendar and the input's text follow the
 * `DatesProvider` locale (components/useDatesLocale.ts). Import this, never Mantine's (eslint
 * `no-restricted-imports`).
 */
export function DateTimePicker<Type extends DatePickerType = 'default'>(props: DateTimePickerProps<Type>) {
  const { t } = useTranslation('common');
  const timePickerProps = useTimeFields(props.timePickerProps);
  const endTimePickerProps = useTimeFields(props.endTimePickerProps);
  return (
    <MantineDateTimePicker<Type>
      {...props}
      timePickerProps={timePickerProps}
      endTimePickerProps={endTimePickerProps}
      submitButtonProps={{ 'aria-label': t('a11y.confirmDateTime'), ...props.submitButtonProps }}
    />
  );
}

/**
 * The app's time picker: Mantine's TimePicker with its fields in the reader's digit system (see
 * DateTimePicker). Without the dropdown (`withDropdown`, `presets`): Mantine writes its lists of
 * hours and minutes with `padTime` in Western digits and offers no hook on them.
 */
export function TimePicker(props: Omit<TimePickerProps, 'withDropdown' | 'presets'>) {
  return <MantineTimePicker {...useTimeFields(props)} />;
}
