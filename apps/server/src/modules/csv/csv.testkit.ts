import Papa from 'papaparse';
import { CSV_COLUMNS } from '@masar/shared';

/** A multipart/form-data body with `fields` and an optional CSV `file`. */
export const multipart = (fields: Record<string, string>, file?: { name: string; data: Buffer | string }) => {
  const boundary = '----masar' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n`));
    parts.push(Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
};

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
