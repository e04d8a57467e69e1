import {
  createTheme,
  darken,
  DEFAULT_THEME,
  lighten,
  luminance,
  mergeThemeOverrides,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type MantineThemeOverride,
} from '@mantine/core';
import type { TFunction } from 'i18next';
import { digits } from '../lib/digits';

// Brand colours (spec §9): green #0FC474, red #F00053, yellow #ffcd00. The brand green stays
// shade 6 (logo, icons, accents, text on dark); shades 7–9 are deeper greens that carry white
// text, so buttons and links stay green and readable in both schemes.
const masar: MantineColorsTuple = ['#e5fff3', '#cffbe5', '#a0f5ca', '#6defad', '#43ea95', '#27e785', '#0FC474', '#007a44', '#006b3c', '#005a32'];
const masarRed: MantineColorsTuple = ['#ffe8f0', '#ffcfdd', '#ff9cb8', '#fe6591', '#fe3970', '#fe1d5b', '#F00053', '#d1004a', '#b50040', '#990036'];
const masarYellow: MantineColorsTuple = ['#fffbe0', '#fff4b3', '#ffec80', '#ffe34d', '#ffda26', '#ffd30d', '#ffcd00', '#e6b800', '#c9a000', '#a88600'];

/** WCAG 2.x contrast ratio of two colours (1–21). */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** WCAG AA for normal text (1.4.3). */
export const AA = 4.5;

/**
 * `color` darkened (on light surfaces) or lightened (on dark ones) in small steps until it
 * reads at AA on every one of `surfaces` — the one rule every text colour of the theme follows.
 */
export function readableOn(color: string, surfaces: string[], scheme: 'light' | 'dark'): string {
  let c = color;
  for (let i = 0; i < 40 && surfaces.some((s) => contrast(c, s) < AA); i++)
    c = scheme === 'light' ? darken(color, (i + 1) * 0.025) : lighten(color, (i + 1) * 0.025);
  return c;
}

const { gray, dark } = DEFAULT_THEME.colors;
/** Where text sits: the body and the grey panels (light); body, cards and inputs (dark). */
export const SURFACES = { light: ['#ffffff', gray[0], gray[1]], dark: [dark[7], dark[6], dark[5]] } as const;

/**
 * Text colours derived from the palette so that every coloured text (`c="red"`, outline and
 * subtle buttons, light badges, links, dimmed text) passes 4.5:1 in both schemes. Filled
 * surfaces get black or white text from `autoContrast` (luminance threshold at the point where
 * black and white contrast equally, so the better one always clears 4.5:1).
 */
export const resolveTextColors: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = {};
  const darkVars: Record<string, string> = {};
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (name === 'dark' || name === 'gray') continue;
    const onLight = readableOn(shades[7], [...SURFACES.light, shades[1]], 'light');
    light[`--mantine-color-${name}-text`] = onLight;
    light[`--mantine-color-${name}-outline`] = onLight;
    light[`--mantine-color-${name}-light-color`] = readableOn(shades[9], [shades[1], shades[2]], 'light');
    const onDark = readableOn(shades[4], [...SURFACES.dark], 'dark');
    darkVars[`--mantine-color-${name}-text`] = onDark;
    darkVars[`--mantine-color-${name}-outline`] = onDark;
    darkVars[`--mantine-color-${name}-light-color`] = readableOn(shades[0], [darken(shades[9], 0.5), darken(shades[9], 0.3)], 'dark');
  }
  return {
    variables: {},
    light: {
      ...light,
      '--mantine-color-dimmed': readableOn(gray[6], [...SURFACES.light], 'light'),
      '--mantine-color-placeholder': readableOn(gray[5], [...SURFACES.light], 'light'),
      '--mantine-color-anchor': light['--mantine-color-masar-text'],
      '--mantine-primary-color-text': light['--mantine-color-masar-text'],
    },
    dark: {
      ...darkVars,
      '--mantine-color-dimmed': readableOn(dark[2], [...SURFACES.dark], 'dark'),
      '--mantine-color-placeholder': readableOn(dark[3], [...SURFACES.dark], 'dark'),
      '--mantine-color-anchor': darkVars['--mantine-color-masar-text'],
      '--mantine-primary-color-text': darkVars['--mantine-color-masar-text'],
    },
  };
};

export const theme = createTheme({
  primaryColor: 'masar',
  // Filled surfaces use one shade in both schemes: Mantine picks their text colour (autoContrast)
  // once, not per scheme, so a shade that needs dark text in one scheme would fail in the other.
  primaryShade: { light: 7, dark: 7 },
  colors: { masar, masarRed, masarYellow },
  autoContrast: true,
  luminanceThreshold: 0.179,
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans Arabic', 'Noto Kufi Arabic', Tahoma, sans-serif",
  defaultRadius: 'md',
  // A reader whose system asks for reduced motion (prefers-reduced-motion: reduce) gets Mantine's
  // transitions (modals, menus, popovers, notifications) at 0 ms; global.css does the same for
  // CSS transitions and animations (WCAG 2.3.3).
  respectReducedMotion: true,
});

/**
 * The theme with the accessible names of the controls Mantine draws without text (pagination
 * arrows, calendar arrows, close buttons) in the current language: named once here rather than
 * at every use. Components are named by string so that no dates code lands in the entry chunk.
 * Page numbers and calendar days are written in the reader's digit system (lib/digits.ts); number
 * inputs are components/NumberInput (not a theme default: it keeps react-number-format out of the
 * entry chunk).
 */
export function localizedTheme(t: TFunction): MantineThemeOverride {
  const a = (key: string) => t(`common:a11y.${key}`);
  const calendar = {
    ariaLabels: {
      previousMonth: a('previousMonth'),
      nextMonth: a('nextMonth'),
      previousYear: a('previousYear'),
      nextYear: a('nextYear'),
      previousDecade: a('previousDecade'),
      nextDecade: a('nextDecade'),
      monthLevelControl: a('chooseYear'),
      yearLevelControl: a('chooseMonth'),
    },
  };
  const closeButtonProps = { 'aria-label': a('close') };
  return mergeThemeOverrides(
    theme,
    createTheme({
      components: {
        Pagination: {
          defaultProps: {
            getControlProps: (control: 'first' | 'previous' | 'next' | 'last') => ({ 'aria-label': a(`${control}Page`) }),
            getItemProps: (page: number) => ({ children: digits(page) }),
          },
        },
        Day: { defaultProps: { renderDay: (date: string) => digits(date.slice(8, 10)) } },
        Calendar: { defaultProps: calendar },
        DatePicker: { defaultProps: calendar },
        DatePickerInput: { defaultProps: calendar },
        DateTimePicker: { defaultProps: calendar },
        DateInput: { defaultProps: calendar },
        Modal: { defaultProps: { closeButtonProps } },
        Drawer: { defaultProps: { closeButtonProps } },
        Notification: { defaultProps: { closeButtonProps } },
        // A table wider than a phone scrolls in its container; keyboard users reach it (WCAG 2.1.1)
        TableScrollContainer: { defaultProps: { type: 'native', tabIndex: 0 } },
        // Mantine 9's Combobox keeps a closed dropdown's options mounted (hidden): six of them were
        // about 450 of the load search's 4,500 components on its first render (issue 23). Mantine sets
        // aria-controls only while a dropdown is open, so nothing points at the missing list.
        Select: { defaultProps: { comboboxProps: { keepMounted: false } } },
      },
    }),
  );
}
