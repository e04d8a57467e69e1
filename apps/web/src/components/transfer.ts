import { LIMITS } from '@masar/shared';
import { ApiError, masar, unwrap } from '../lib/api';
import { readStoredSession } from '../lib/storage';

/**
 * File transfers the JSON client (lib/api) does not do: multipart uploads (documents, CSV
 * imports) and file downloads (CSV templates and exports). Same headers as lib/api; on 401/406
 * one cheap authenticated JSON call lets lib/api's token logic refresh the token, then the
 * transfer is retried once.
 */
function headers(): Record<string, string> {
  const h: Record<string, string> = {
    language: document.documentElement.lang === 'ar' ? 'ar' : 'en',
    currencycode: 'SAR',
    currencysymbol: 'SAR',
    platform: '3',
  };
  const { token } = readStoredSession();
  if (token) h.authorization = `Bearer ${token}`;
  return h;
}

async function send(method: string, path: string, body?: FormData): Promise<Response> {
  const go = () => fetch(`/api/v1${path}`, { method, headers: headers(), body });
  let res = await go();
  if (res.status === 401 || res.status === 406) {
    await unwrap(masar.GET('/api/v1/accountDetails')).catch(() => undefined);
    res = await go();
  }
  return res;
}

async function fail(res: Response): Promise<never> {
  let body: { message?: string; code?: string; errors?: { path: string; message: string }[] } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    /* not JSON */
  }
  throw new ApiError(res.status, body.code ?? 'SOMETHING_WENT_WRONG', body.message ?? res.statusText, body.errors ?? []);
}

/** POST multipart/form-data; returns `data` of the envelope. */
export async function postMultipart<T>(path: string, form: FormData): Promise<T> {
  const res = await send('POST', path, form);
  if (!res.ok) return fail(res);
  const json = (await res.json()) as { data: T };
  return json.data;
}

/** Download a file from the API and hand it to the browser under `fallbackName`. */
export async function downloadFile(path: string, fallbackName: string) {
  const res = await send('GET', path);
  if (!res.ok) return fail(res);
  const blob = await res.blob();
  const cd = res.headers.get('content-disposition') ?? '';
  const m = /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(cd);
  const name = m ? decodeURIComponent(m[1] ?? m[2] ?? fallbackName) : fallbackName;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** An uploaded file (POST /files). */
export interface UploadedFile {
  id: string;
  url: string;
  mime: string;
  size: number;
  name?: string;
}

export const DOCUMENT_ACCEPT = 'application/pdf,image/jpeg,image/png';
/** The document size limit in MB, for the hints ("at most {{mb}} MB": a number, so it takes the reader's digits). */
export const DOCUMENT_MAX_MB = LIMITS.documentMaxBytes / 1024 / 1024;
const DOC_MIMES = ['application/pdf', 'image/jpeg', 'image/png'];
const DOC_EXT = /\.(pdf|jpe?g|png)$/i;

/**
 * Client-side check of a document before upload (spec §5: PDF, JPG or PNG, at most 5 MB); the
 * server checks again by magic bytes. Returns an error kind or null.
 */
export function checkDocument(file: File): 'type' | 'size' | null {
  if (!DOC_MIMES.includes(file.type) && !DOC_EXT.test(file.name)) return 'type';
  if (file.size > LIMITS.documentMaxBytes) return 'size';
  return null;
}

/** A CSV file? (spec §5: bulk upload accepts CSV only). */
export function isCsvFile(file: File) {
  return /\.csv$/i.test(file.name) && (file.type === '' || /csv|excel|text\/plain/i.test(file.type));
}

/** POST /files (multipart: file + purpose) → the stored file. */
export function uploadFile(file: File, purpose: string) {
  const form = new FormData();
  form.append('purpose', purpose);
  form.append('file', file);
  return postMultipart<UploadedFile>('/files', form);
}
