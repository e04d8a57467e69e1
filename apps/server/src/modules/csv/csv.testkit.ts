import Papa from 'papaparse';
import { CSV_COLUMNS } from '@masar/shared';

export { multipart } from '../../../test/fixtures.ts';

/** CSV of vendor bodies with headers in `lang`. */
export const vendorsCsv = (rows: Record<string, unknown>[], lang: 'en' | 'ar' = 'en') => {
  const cols = CSV_COLUMNS.vendors;
  const cell = (v: unknown, kind: string) =>
    v === undefined
      ? ''
      : kind === 'json'
        ? JSON.stringify(v)
        : Array.isArray(v)
          ? v.join(';')
          : typeof v === 'boolean'
            ? v
              ? 'yes'
              : 'no'
            : typeof v === 'number'
              ? `${v}`
              : (v as string);
  return Papa.unparse({ fields: cols.map((c) => c[lang]), data: rows.map((r) => cols.map((c) => cell(r[c.key], c.kind))) });
};
