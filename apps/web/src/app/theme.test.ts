import { describe, expect, it } from 'vitest';
import { getContrastColor, mergeMantineTheme, DEFAULT_THEME } from '@mantine/core';
import { AA, contrast, readableOn, resolveTextColors, SURFACES, theme } from './theme';

const full = mergeMantineTheme(DEFAULT_THEME, theme);
const vars = resolveTextColors(full);
const BLACK = full.black;
const WHITE = full.white;

describe('accessible theme (WCAG 2.2 AA, 4.5:1)', () => {
  it('keeps the brand colours in the palette', () => {
    expect(full.colors.masar[6]).toBe('#0FC474');
    expect(full.colors.masarRed[6]).toBe('#F00053');
    expect(full.colors.masarYellow[6]).toBe('#ffcd00');
  });

  it('gives every filled colour, in both schemes, the text colour that reads on it', () => {
    // Mantine decides a filled surface's text colour once (no colour scheme), from the light shade
    const light = typeof full.primaryShade === 'object' ? full.primaryShade.light : full.primaryShade;
    const dark = typeof full.primaryShade === 'object' ? full.primaryShade.dark : full.primaryShade;
    for (const [name, shades] of Object.entries(full.colors)) {
      const fg = getContrastColor({ color: name, theme: full }).includes('black') ? BLACK : WHITE;
      expect(contrast(shades[light], fg), `light ${name}`).toBeGreaterThanOrEqual(AA);
      expect(contrast(shades[dark], fg), `dark ${name}`).toBeGreaterThanOrEqual(AA);
    }
  });

  it('derives text colours of every palette colour that pass on the surfaces they sit on', () => {
    for (const [name, shades] of Object.entries(full.colors)) {
      if (name === 'dark' || name === 'gray') continue;
      for (const s of SURFACES.light) expect(contrast(vars.light[`--mantine-color-${name}-text`], s), `light ${name} on ${s}`).toBeGreaterThanOrEqual(AA);
      for (const s of SURFACES.dark) expect(contrast(vars.dark[`--mantine-color-${name}-text`], s), `dark ${name} on ${s}`).toBeGreaterThanOrEqual(AA);
      expect(contrast(vars.light[`--mantine-color-${name}-light-color`], shades[1]), `light badge ${name}`).toBeGreaterThanOrEqual(AA);
    }
  });

  it('makes dimmed text, placeholders and links readable in both schemes', () => {
    for (const s of SURFACES.light) {
      expect(contrast(vars.light['--mantine-color-placeholder'], s)).toBeGreaterThanOrEqual(AA);
      expect(contrast(vars.light['--mantine-color-dimmed'], s)).toBeGreaterThanOrEqual(AA);
      expect(contrast(vars.light['--mantine-color-anchor'], s)).toBeGreaterThanOrEqual(AA);
    }
    for (const s of SURFACES.dark) {
      expect(contrast(vars.dark['--mantine-color-placeholder'], s)).toBeGreaterThanOrEqual(AA);
      expect(contrast(vars.dark['--mantine-color-dimmed'], s)).toBeGreaterThanOrEqual(AA);
      expect(contrast(vars.dark['--mantine-color-anchor'], s)).toBeGreaterThanOrEqual(AA);
    }
  });

  it('readableOn leaves a passing colour alone and darkens or lightens a failing one', () => {
    expect(readableOn('#000000', ['#ffffff'], 'light')).toBe('#000000');
    expect(contrast('#0FC474', '#ffffff')).toBeLessThan(AA);
    expect(contrast(readableOn('#0FC474', ['#ffffff'], 'light'), '#ffffff')).toBeGreaterThanOrEqual(AA);
    expect(contrast(readableOn('#0FC474', ['#242424'], 'dark'), '#242424')).toBeGreaterThanOrEqual(AA);
  });
});
