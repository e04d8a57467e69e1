import { LIMITS } from '@masar/shared';
import { masar, unwrap, unwrapResponse, withForm } from '../lib/api';

/**
 * Download a file from the API (a `masar` call with `parseAs: 'blob'`, so the token logic and
 * errors are lib/api's) and hand it to the browser under the server's file name or `fallbackName`.
 *
 *   downloadFile(masar.GET('/api/v1/invoices/{id}/pdf', { params: { path: { id } }, parseAs: 'blob' }), 'invoice.pdf')
 */
export async function downloadFile(call: Promise<{ data?: unknown; error?: unknown; response: Response }>, fallbackName: string) {
  const { data, response } = await unwrapResponse(call);
  const cd = response.headers.get('content-disposition') ?? '';
  const m = /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(cd);
  const name = m ? decodeURIComponent(m[1] ?? m[2] ?? fallbackName) : fallbackName;
  const url = URL.createObjectURL(data instanceof Blob ? data : new Blob([]));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Download a file the server linked to (a document's or a proof's `url`, `/api/v1/files/:id` or
 * `/api/v1/trip-proofs/:id`); other links open as they are.
 */
export function downloadLinked(url: string, fallbackName: string) {
  const file = /^\/api\/v1\/files\/([^/?#]+)$/.exec(url);
  if (file) return downloadFile(masar.GET('/api/v1/files/{id}', { params: { path: { id: file[1] } }, parseAs: 'blob' }), fallbackName);
  const proof = /^\/api\/v1\/trip-proofs\/([^/?#]+)$/.exec(url);
  if (proof) return downloadFile(masar.GET('/api/v1/trip-proofs/{id}', { params: { path: { id: proof[1] } }, parseAs: 'blob' }), fallbackName);
  window.open(url, '_blank', 'noreferrer');
  return Promise.resolve();
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
  // eslint-disable-next-line no-restricted-syntax -- a building block: DocumentUpload and ProfileApprovalPage call it from a useMutation mutationFn
  return unwrap(masar.POST('/api/v1/files', { middleware: [withForm(form)] }));
}
