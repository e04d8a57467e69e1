import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import type { ErrorCode } from '@masar/shared';
import { AppError } from './errors.ts';

/** The file name extension a stored file is served with, by its MIME type (JPEG unless PDF, PNG or WebP). */
export const extensionOf = (mime: string) => ({ 'application/pdf': 'pdf', 'image/png': 'png', 'image/webp': 'webp' })[mime] ?? 'jpg';

/**
 * Read the one file of a multipart request into memory. No multipart body or no file part →
 * UPLOAD_FILE_FIRST; over the route's size limit → `tooLarge`. Returns the bytes and the part
 * (its `fields` carry the other form fields).
 */
export async function readUpload(req: FastifyRequest, tooLarge: ErrorCode): Promise<{ data: Buffer; part: MultipartFile }> {
  if (!req.isMultipart()) throw new AppError('UPLOAD_FILE_FIRST');
  const part = await req.file();
  if (!part) throw new AppError('UPLOAD_FILE_FIRST');
  try {
    return { data: await part.toBuffer(), part };
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(tooLarge);
    throw e;
  }
}
