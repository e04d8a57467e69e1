import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * DESIGN §3: every key in en has an ar twin and the reverse, across every namespace file
 * (including other features' files). Also: no empty strings, same {{placeholders}}.
 * Plural forms are compared by their base key: Arabic needs _zero/_two/_few/_many where
 * English has only _one/_other.
 */
const dir = join(import.meta.dirname, 'locales');
const LANGS = ['en', 'ar'] as const;

/** Nested keys as paths; arrays (the sections of a text page) by index, so both languages have as many. */
function flatten(obj: unknown, prefix = ''): Record<string, unknown> {
  if (obj === null || typeof obj !== 'object') return { [prefix]: obj };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) Object.assign(out, flatten(v, prefix ? `${prefix}.${k}` : k));
  return out;
}

const files = (lang: string) => readdirSync(join(dir, lang)).filter((f) => f.endsWith('.json'));
const load = (lang: string, file: string) => flatten(JSON.parse(readFileSync(join(dir, lang, file), 'utf8')));
const PLURAL = /_(zero|one|two|few|many|other)$/;
const base = (k: string) => k.replace(PLURAL, '');
const placeholders = (s: unknown) => (typeof s === 'string' ? [...s.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort() : []);

describe('i18n parity (en ↔ ar)', () => {
  it('has the same namespace files in every language', () => {
    expect(files('ar').sort()).toEqual(files('en').sort());
  });

  for (const file of [...new Set(LANGS.flatMap(files))].sort()) {
    it(`${file}: same keys, no empty strings, same placeholders`, () => {
      const [en, ar] = LANGS.map((l) => (files(l).includes(file) ? load(l, file) : {}));
      const arBases = new Set(Object.keys(ar).map(base));
      const enBases = new Set(Object.keys(en).map(base));
      const onlyEn = Object.keys(en).filter((k) => !arBases.has(base(k)));
      const onlyAr = Object.keys(ar).filter((k) => !enBases.has(base(k)));
      expect({ missingInAr: onlyEn, missingInEn: onlyAr }).toEqual({ missingInAr: [], missingInEn: [] });
      for (const [k, v] of Object.entries(en)) {
        expect(typeof v === 'string' && v.trim() !== '', `en ${file} ${k} is empty`).toBe(true);
        if (PLURAL.test(k)) continue;
        expect(typeof ar[k] === 'string' && ar[k].trim() !== '', `ar ${file} ${k} is empty`).toBe(true);
        expect(placeholders(ar[k]), `placeholders of ${file} ${k}`).toEqual(placeholders(v));
      }
      for (const [k, v] of Object.entries(ar)) expect(typeof v === 'string' && v.trim() !== '', `ar ${file} ${k} is empty`).toBe(true);
      // every Arabic plural form has its English twin (the project writes all six forms in en too)
      expect(
        Object.keys(ar).filter((k) => PLURAL.test(k) && !(k in en)),
        `${file}: Arabic plural forms without an English twin`,
      ).toEqual([]);
    });
  }
});

/**
 * The webhooks page and the load timeline label an event by `integrations:event.<type with _>`:
 * every event a webhook or a timeline can carry has its label (a missing one showed the raw key).
 */
describe('event labels', () => {
  it('labels every webhook event type in both languages', async () => {
    const { WEBHOOK_EVENT_TYPES } = await import('@masar/shared');
    for (const lang of LANGS) {
      const labels = load(lang, 'integrations.json');
      const missing = WEBHOOK_EVENT_TYPES.map((t) => `event.${t.replace('.', '_')}`).filter((k) => typeof labels[k] !== 'string');
      expect({ lang, missing }).toEqual({ lang, missing: [] });
    }
  });
});
