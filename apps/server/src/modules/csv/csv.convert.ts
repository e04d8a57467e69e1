import Papa from 'papaparse';
import { z } from 'zod';
import {
  createLoadBody,
  CSV_COLUMNS,
  driverInput,
  formatPlate,
  parsePlateString,
  trailerInput,
  vehicleInput,
  vendorInput,
  type CsvColumn,
  type CsvImportType,
  type Language,
} from '@masar/shared';

/**
 * Pure CSV ↔ form-schema conversion (no I/O): header mapping (English or Arabic), cell parsing
 * per column kind, validation with the SAME zod schema as the form, and the export writer.
 */

/** The form schema each import type is validated with. */
export const ROW_SCHEMAS: Record<CsvImportType, z.ZodType> = {
  vendors: vendorInput,
  drivers: driverInput,
  vehicles: vehicleInput,
  trailers: trailerInput,
  shipments: createLoadBody,
};

/** A stored row error: `code` is a v.* validation key, an error code, or zod's own message. */
export interface RowError {
  path: string;
  code: string;
}

const norm = (h: string) =>
  h
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');

/**
 * Map the file's headers to field keys. A header may be the English or Arabic header of the
 * template, or the field key itself; case and spacing are ignored. Returns the mapping and the
 * required keys that are missing.
 */
export function mapHeaders(type: CsvImportType, headers: string[]): { byHeader: Map<string, CsvColumn>; missing: string[] } {
  const index = new Map<string, CsvColumn>();
  for (const c of CSV_COLUMNS[type]) {
    index.set(norm(c.en), c);
    index.set(norm(c.ar), c);
    index.set(norm(c.key), c);
  }
  const byHeader = new Map<string, CsvColumn>();
  for (const h of headers) {
    const c = index.get(norm(h));
    if (c) byHeader.set(h, c);
  }
  const have = new Set([...byHeader.values()].map((c) => c.key));
  const missing = CSV_COLUMNS[type].filter((c) => c.required && !have.has(c.key)).map((c) => c.key);
  return { byHeader, missing };
}

/**
 * Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"). Exports
 * prefix such a cell with an apostrophe; imports drop that apostrophe again, so a phone number
 * "+9665…" survives an export → import round trip.
 */
const FORMULA_START = /^['](?=[=+\-@\t\r])/;

/** Raw row (by header) → cells by field key (strings, trimmed; empty cells dropped). */
export function rowCells(raw: Record<string, unknown>, byHeader: Map<string, CsvColumn>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [h, c] of byHeader) {
    const v = raw[h];
    if (typeof v === 'string' && v.trim() !== '') out[c.key] = v.trim().replace(FORMULA_START, '');
  }
  return out;
}

const TRUE = new Set(['yes', 'true', '1', 'y', 'نعم']);
const FALSE = new Set(['no', 'false', '0', 'n', 'لا']);
const splitList = (v: string) =>
  v
    .split(/[;|]/)
    .map((s) => s.trim())
    .filter(Boolean);
const toNumber = (v: string) => Number(v.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660)).replace(/,/g, ''));

/** One readable address of an export: "Riyadh (3) — King Fahd Rd" → { cityId: 3, address }. */
const ADDRESS_RE = /^[^()]*\((\d{1,9})\)\s*(?:[—-]\s*(.*))?$/;

/**
 * A structured cell: JSON (the templates' format) or the readable address list an export writes
 * ("Riyadh (3) — King Fahd Rd; Jeddah (18)"). undefined when it is neither.
 */
function parseStructured(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    const parts = v
      .split(';')
      .map((p) => p.trim())
      .filter(Boolean);
    const out = parts.map((p) => ADDRESS_RE.exec(p));
    if (!out.length || out.some((m) => !m)) return undefined;
    return out.map((m) => ({ cityId: Number(m![1]), address: (m![2] ?? '').trim() }));
  }
}

/** Cells by key → the object the form schema expects; unreadable cells become errors. */
export function cellsToInput(type: CsvImportType, cells: Record<string, string>): { input: Record<string, unknown>; errors: RowError[] } {
  const input: Record<string, unknown> = {};
  const errors: RowError[] = [];
  for (const c of CSV_COLUMNS[type]) {
    const v = cells[c.key];
    if (v === undefined || v === '') continue;
    switch (c.kind) {
      case 'text':
        input[c.key] = v;
        break;
      case 'number':
      case 'int': {
        const n = toNumber(v);
        if (Number.isFinite(n)) input[c.key] = n;
        else input[c.key] = v; // the schema reports it with the field's own message
        break;
      }
      case 'bool': {
        const l = v.toLowerCase();
        if (TRUE.has(l)) input[c.key] = true;
        else if (FALSE.has(l)) input[c.key] = false;
        else errors.push({ path: c.key, code: 'v.csvCell' });
        break;
      }
      case 'list':
        input[c.key] = splitList(v);
        break;
      case 'intList':
        input[c.key] = splitList(v).map(toNumber);
        break;
      case 'json': {
        const parsed = parseStructured(v);
        if (parsed === undefined) errors.push({ path: c.key, code: 'v.csvCell' });
        else input[c.key] = parsed;
        break;
      }
      case 'plate': {
        const p = parsePlateString(v);
        if (p) input[c.key] = p;
        else errors.push({ path: 'plate.digits', code: 'v.plateDigits' });
        break;
      }
    }
  }
  return { input, errors };
}

/** Validate a row (cells by key) with the form schema. */
export function validateRow(type: CsvImportType, cells: Record<string, string>): { ok: true; value: unknown } | { ok: false; errors: RowError[] } {
  const { input, errors } = cellsToInput(type, cells);
  const r = ROW_SCHEMAS[type].safeParse(input);
  const all = [...errors];
  if (!r.success) {
    for (const i of r.error.issues) {
      const path = i.path.join('.');
      if (!all.some((e) => e.path === path)) all.push({ path, code: i.message });
    }
  }
  if (all.length) return { ok: false, errors: all };
  return { ok: true, value: r.data };
}

/** Parse CSV text (papaparse, header row). */
export function parseCsv(text: string) {
  const r = Papa.parse<Record<string, unknown>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy', transformHeader: (h) => h.trim() });
  return { headers: r.meta.fields ?? [], rows: r.data, errors: r.errors };
}

/** What an export needs besides the row to write readable cells (e.g. city names). */
export interface CellContext {
  cityName?: (id: number) => string | undefined;
}

/** A readable rendering of a structured value: never JSON in an exported cell (issue 6). */
function readable(value: unknown, lang: Language, ctx: CellContext): string {
  if (Array.isArray(value)) return value.map((v) => readable(v, lang, ctx)).join('; ');
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    // an address: "City (id) — street" (office locations); the id lets the import read it back
    if ('cityId' in o) {
      const id = Number(o.cityId);
      const city = ctx.cityName?.(id);
      const address = typeof o.address === 'string' && o.address ? ` — ${o.address}` : '';
      return `${city ? `${city} ` : ''}(${id})${address}`;
    }
    return Object.entries(o)
      .filter(([, v]) => v !== null && v !== undefined && v !== '')
      .map(([k, v]) => `${k}: ${readable(v, lang, ctx)}`)
      .join(', ');
  }
  if (typeof value === 'boolean') return value ? (lang === 'ar' ? 'نعم' : 'yes') : lang === 'ar' ? 'لا' : 'no';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return String(value);
  return '';
}

/**
 * A field value as an exported CSV cell: readable text in `lang` (lists joined by ";",
 * structured values as "City — address", yes/no), never JSON. Formula characters are defused
 * by writeCsv.
 */
export function toCell(col: CsvColumn, value: unknown, lang: Language, ctx: CellContext = {}): string {
  if (value === null || value === undefined) return '';
  switch (col.kind) {
    case 'bool':
      return value ? (lang === 'ar' ? 'نعم' : 'yes') : lang === 'ar' ? 'لا' : 'no';
    case 'list':
    case 'intList':
      return (value as unknown[]).join(';');
    case 'json':
      return readable(value, lang, ctx);
    case 'plate':
      return formatPlate(value as { digits: string; left: string; middle: string; right: string });
    default:
      return readable(value, lang, ctx);
  }
}

/**
 * UTF-8 CSV with BOM (Excel opens Arabic correctly) from header labels and rows. Cells that
 * begin with = + - @ tab or CR get a leading apostrophe (papaparse escapeFormulae, OWASP CSV
 * injection): a vendor named =HYPERLINK(…) is exported as text, not as a live formula.
 */
export function writeCsv(headers: string[], rows: string[][]): string {
  return `\uFEFF${Papa.unparse({ fields: headers, data: rows }, { newline: '\r\n', escapeFormulae: true })}\r\n`;
}

/** Template of a type: the header row in `lang` (either language is accepted on import). */
export function templateCsv(type: CsvImportType, lang: Language): string {
  return writeCsv(
    CSV_COLUMNS[type].map((c) => c[lang]),
    [],
  );
}
