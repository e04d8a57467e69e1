import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Box, Fieldset, Group, Input, Select, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { normalizePlateLetter, PLATE_DIGITS, PLATE_LETTERS, PLATE_TYPES, toLatinDigits } from '@masar/shared';

/**
 * Plate letters and types come from the shared rules (one source, also used by the API and the
 * CSV import). Strip colours of the plate drawing per plate type id (plates.json strip_color).
 */
const STRIP_COLOR: Record<number, string> = { 1: '#ffffff', 2: '#ffcd00', 3: '#1c64d6', 6: '#ffcd00', 9: '#138a4b', 11: '#9aa1a9' };
export { PLATE_LETTERS, PLATE_TYPES };

export type PlateSlot = 'left' | 'middle' | 'right';
export const PLATE_SLOTS: PlateSlot[] = ['left', 'middle', 'right'];

/**
 * A plate as the picker edits it. `digits`: up to 4 Latin digits. `left`/`middle`/`right`:
 * canonical Arabic plate letters in their visual position on the plate ('' when not chosen).
 */
export interface PlateValue {
  digits: string;
  left: string;
  middle: string;
  right: string;
}
export const EMPTY_PLATE: PlateValue = { digits: '', left: '', middle: '', right: '' };

const TATWEEL = /\u0640/g;

/** The plate letter a typed character stands for (alias, Latin or Arabic), or undefined. */
export function plateLetter(ch: string) {
  const ar = normalizePlateLetter(ch);
  return ar ? PLATE_LETTERS.find((l) => l.ar === ar) : undefined;
}

/** Latin letter printed under an Arabic plate letter ('' when unknown). */
export function latinOf(ar: string) {
  return plateLetter(ar)?.latin ?? '';
}

/** Arabic-Indic (٠-٩) and Persian (۰-۹) digits to Latin, everything else dropped, at most 4. */
export function normalizePlateDigits(text: string) {
  return toLatinDigits(text).replace(/\D/g, '').slice(0, 4);
}

/**
 * Letters typed or pasted as text → plate slots. Arabic is written right to left, so Arabic
 * text in its logical order fills right, middle, left; Latin text (read left to right, as on
 * the plate) fills left, middle, right. Aliases (أ→ا, هـ→ه, ي→ى) and lower case are
 * normalised; characters that are not plate letters are ignored. At most three letters.
 */
export function parsePlateLetters(text: string): Pick<PlateValue, PlateSlot> {
  const chars = [...text.replace(TATWEEL, '')];
  const letters = chars.map((c) => plateLetter(c)).filter((l) => l !== undefined);
  const arabic = chars.some((c) => /[\u0600-\u06ff]/.test(c));
  const order: PlateSlot[] = arabic ? ['right', 'middle', 'left'] : ['left', 'middle', 'right'];
  const out = { left: '', middle: '', right: '' };
  letters.slice(0, 3).forEach((l, i) => (out[order[i]] = l.ar));
  return out;
}

/** The letters of a plate as Arabic text in logical (reading) order: right, middle, left. */
export function plateLettersText(v: Pick<PlateValue, PlateSlot>) {
  return [v.right, v.middle, v.left].filter(Boolean).join(' ');
}

/** Arabic-Indic rendering of Latin digits. */
function arabicDigits(d: string) {
  return d.replace(/\d/g, (x) => String.fromCharCode(0x0660 + Number(x)));
}

/** A plate drawn like the real one: digits left, letters right, Arabic above Latin, KSA strip. */
export function PlatePreview({ value, plateType, size = 'md' }: { value: PlateValue; plateType?: number | null; size?: 'sm' | 'md' }) {
  const { t } = useTranslation('fleet');
  const strip = (plateType && STRIP_COLOR[plateType]) || '#ffffff';
  const fs = size === 'sm' ? 15 : 22;
  const cell = (children: ReactNode, testId?: string, latinDigits?: boolean) => (
    <Box
      data-testid={testId}
      // the plate's Latin row keeps Western digits, as on the metal plate (e2e/digits.test.ts)
      data-latin-digits={latinDigits || undefined}
      style={{
        display: 'flex',
        justifyContent: 'center',
        alignItems: 'center',
        gap: fs / 3,
        padding: '2px 8px',
        minHeight: fs * 1.5,
        fontWeight: 700,
        fontSize: fs,
        lineHeight: 1.2,
      }}
    >
      {children}
    </Box>
  );
  const slotLetters = (latin: boolean) =>
    PLATE_SLOTS.map((s) => (
      <span key={s} style={{ minWidth: fs * 0.8, textAlign: 'center' }}>
        {value[s] ? (latin ? latinOf(value[s]) : value[s]) : '·'}
      </span>
    ));
  const label = t('plate.previewLabel', {
    digits: value.digits || '-',
    letters: PLATE_SLOTS.map((s) => (value[s] ? `${value[s]} (${latinOf(value[s])})` : '-')).join(' '),
  });
  return (
    // A physical plate does not mirror in RTL: always drawn left to right.
    <Box
      dir="ltr"
      role="img"
      aria-label={label}
      data-testid="plate-preview"
      style={{
        display: 'inline-flex',
        alignSelf: 'flex-start',
        flexShrink: 0,
        border: '3px solid #111',
        borderRadius: 8,
        background: '#fff',
        color: '#111',
        overflow: 'hidden',
        fontFamily: "'Noto Kufi Arabic', 'Noto Sans Arabic', system-ui, sans-serif",
      }}
    >
      <Box style={{ display: 'grid', gridTemplateColumns: 'auto auto', gridTemplateRows: 'auto auto' }}>
        <Box style={{ borderInlineEnd: '2px solid #111', borderBottom: '2px solid #111' }}>
          {cell(arabicDigits(value.digits).padEnd(4, '·'), 'plate-preview-digits-ar')}
        </Box>
        <Box style={{ borderBottom: '2px solid #111' }}>{cell(slotLetters(false), 'plate-preview-letters-ar')}</Box>
        <Box style={{ borderInlineEnd: '2px solid #111' }}>{cell(value.digits.padEnd(4, '·'), 'plate-preview-digits-latin', true)}</Box>
        <Box>{cell(slotLetters(true), 'plate-preview-letters-latin')}</Box>
      </Box>
      <Box
        style={{
          borderInlineStart: '2px solid #111',
          background: strip,
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'center',
          alignItems: 'center',
          padding: '0 4px',
          fontSize: fs * 0.42,
          fontWeight: 700,
          color: strip === '#ffffff' || strip === '#ffcd00' ? '#111' : '#fff',
        }}
      >
        <span>السعودية</span>
        <span>KSA</span>
      </Box>
    </Box>
  );
}

export interface PlatePickerProps {
  value: PlateValue;
  onChange: (value: PlateValue) => void;
  plateType?: number | null;
  onPlateTypeChange?: (plateType: number | null) => void;
  /** Error under the digits (e.g. "4 digits"). */
  digitsError?: ReactNode;
  /** Error under the letters (e.g. "choose three letters", "duplicate plate"). */
  lettersError?: ReactNode;
  plateTypeError?: ReactNode;
  required?: boolean;
  disabled?: boolean;
}

/**
 * Saudi plate input: 4 digits, three Arabic letters (left, middle, right) picked from the 17
 * plate letters — by buttons showing Arabic and Latin, or by typing/pasting Arabic or Latin
 * text (aliases normalised) — and the plate type. Works in RTL and LTR: the plate itself is
 * always drawn left to right, as it is on the vehicle.
 */
export function PlatePicker({
  value,
  onChange,
  plateType,
  onPlateTypeChange,
  digitsError,
  lettersError,
  plateTypeError,
  required,
  disabled,
}: PlatePickerProps) {
  const { t, i18n } = useTranslation('fleet');
  const ar = i18n.language === 'ar';
  const id = useId();
  const [slot, setSlot] = useState<PlateSlot>(() => PLATE_SLOTS.find((s) => !value[s]) ?? 'left');
  const [lettersText, setLettersText] = useState(() => plateLettersText(value));
  const typing = useRef(false);

  // Keep the free-text field in step with the buttons, except while the user is typing in it.
  useEffect(() => {
    if (!typing.current) setLettersText(plateLettersText(value));
  }, [value]);

  const pick = (ch: string) => {
    const next = { ...value, [slot]: ch };
    onChange(next);
    setSlot(PLATE_SLOTS[Math.min(PLATE_SLOTS.indexOf(slot) + 1, 2)]);
  };

  const slotName = (s: PlateSlot) => t(`plate.slot.${s}`);

  return (
    <Fieldset legend={t('plate.label')} disabled={disabled} data-testid="plate-picker" variant="filled">
      <Stack gap="sm">
        <Group align="flex-start" gap="md" wrap="wrap">
          <PlatePreview value={value} plateType={plateType} />
          <Stack gap="xs" style={{ flex: '1 1 12rem' }}>
            <TextInput
              label={t('plate.digits')}
              description={t('plate.digitsHint', { n: PLATE_DIGITS })}
              required={required}
              inputMode="numeric"
              autoComplete="off"
              value={value.digits}
              error={digitsError}
              onChange={(e) => onChange({ ...value, digits: normalizePlateDigits(e.currentTarget.value) })}
              data-testid="plate-digits"
              styles={{ input: { direction: 'ltr', textAlign: ar ? 'right' : 'left' } }}
            />
            <TextInput
              label={t('plate.lettersText')}
              description={t('plate.lettersTextHint')}
              autoComplete="off"
              value={lettersText}
              onFocus={() => (typing.current = true)}
              onBlur={() => {
                typing.current = false;
                setLettersText(plateLettersText(value));
              }}
              onChange={(e) => {
                const text = e.currentTarget.value;
                setLettersText(text);
                onChange({ ...value, ...parsePlateLetters(text) });
              }}
              data-testid="plate-letters-input"
            />
          </Stack>
        </Group>

        <Input.Wrapper label={t('plate.letters')} description={t('plate.lettersHint')} required={required} error={lettersError} id={`${id}-letters`}>
          <Stack gap="xs" mt={4}>
            {/* Slots in plate order (left to right), whatever the page direction. */}
            <Group gap="xs" dir="ltr" role="group" aria-label={t('plate.slots')} justify="flex-start">
              {PLATE_SLOTS.map((s) => (
                <UnstyledButton
                  key={s}
                  type="button"
                  onClick={() => setSlot(s)}
                  aria-pressed={slot === s}
                  aria-label={t('plate.slotLabel', { slot: slotName(s), letter: value[s] ? `${value[s]} ${latinOf(value[s])}` : t('plate.none') })}
                  data-testid={`plate-slot-${s}`}
                  style={{
                    minWidth: 72,
                    padding: '4px 10px',
                    borderRadius: 8,
                    textAlign: 'center',
                    border: `2px solid ${slot === s ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
                    background: 'var(--mantine-color-body)',
                  }}
                >
                  <Text size="xs" c="dimmed">
                    {slotName(s)}
                  </Text>
                  <Text fw={700} size="lg" lh={1.2}>
                    {value[s] || '·'}{' '}
                    <Text span size="sm" c="dimmed">
                      {value[s] ? latinOf(value[s]) : ''}
                    </Text>
                  </Text>
                </UnstyledButton>
              ))}
            </Group>
            <SimpleGrid cols={{ base: 6, xs: 9 }} spacing={6} verticalSpacing={6} role="group" aria-label={t('plate.chooseFor', { slot: slotName(slot) })}>
              {PLATE_LETTERS.map((l) => {
                const selected = value[slot] === l.ar;
                return (
                  <UnstyledButton
                    key={l.latin}
                    type="button"
                    onClick={() => pick(l.ar)}
                    aria-label={t('plate.letterButton', { ar: l.ar, latin: l.latin, slot: slotName(slot) })}
                    aria-pressed={selected}
                    data-testid={`plate-letter-${l.latin}`}
                    style={{
                      display: 'flex',
                      flexDirection: 'column',
                      alignItems: 'center',
                      padding: '4px 0',
                      borderRadius: 6,
                      border: `1px solid ${selected ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
                      background: selected ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-default)',
                    }}
                  >
                    <Text fw={700} size="lg" lh={1.1}>
                      {l.ar}
                    </Text>
                    <Text size="xs" c="dimmed" lh={1.1}>
                      {l.latin}
                    </Text>
                  </UnstyledButton>
                );
              })}
            </SimpleGrid>
          </Stack>
        </Input.Wrapper>

        {onPlateTypeChange && (
          <Select
            label={t('plate.type')}
            required={required}
            placeholder={t('plate.typePlaceholder')}
            data={PLATE_TYPES.map((p) => ({ value: String(p.id), label: ar ? p.ar : p.en }))}
            value={plateType ? String(plateType) : null}
            onChange={(v) => onPlateTypeChange(v ? Number(v) : null)}
            error={plateTypeError}
            data-testid="plate-type"
            allowDeselect={false}
          />
        )}
      </Stack>
    </Fieldset>
  );
}

export default PlatePicker;
