import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, FILE_PURPOSES, fileSchema, idParams, LIMITS, message } from '@masar/shared';
import { AppError } from '../../lib/errors.ts';
import { extensionOf, readUpload } from '../../lib/upload.ts';

/**
 * Uploads (issue 3): POST /files (multipart: `purpose` field or query, then `file`), GET
 * /files/:id (the uploader only). PDF/JPG/PNG ≤ 5 MB, checked by magic bytes.
 */
export default async function filesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  await app.register(multipart, { limits: { fileSize: LIMITS.documentMaxBytes + 1, files: 1, fields: 5 } });
  const svc = app.container.services.files;
  const tags = ['files'];

  app.post(
    '/files',
    {
      // crash-safe replay (issue 22): the committed file's id is the replay key
      config: { auth: 'user', idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Upload a document or image',
        description:
          'multipart/form-data with a `purpose` field (vehicle-insurance, vehicle-image, driver-iqama, driver-licence, driver-photo, vendor-document, business-document, business-logo, chat-attachment; or ?purpose=) and one `file`. PDF, JPG or PNG by magic bytes (not name or content-type) — a chat-attachment may also be WebP — at most 5 MB. Errors: UPLOAD_FILE_FIRST, FILE_TYPE_NOT_ALLOWED (415; CHAT_ATTACHMENT_TYPE_NOT_ALLOWED for a chat-attachment), FILE_TOO_LARGE (413).',
        querystring: z.object({ purpose: z.enum(FILE_PURPOSES).optional() }),
        consumes: ['multipart/form-data'],
        response: { 201: envelope(fileSchema) },
      },
    },
    async (req, reply) => {
      const { data, part } = await readUpload(req, 'FILE_TOO_LARGE');
      const field = part.fields.purpose as { value?: unknown } | undefined;
      const purpose = z.enum(FILE_PURPOSES).safeParse(req.query.purpose ?? field?.value);
      if (!purpose.success) throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'purpose', message: 'purpose' }] });
      const file = await svc.upload(app.requireUser(req).id, purpose.data, data, part.filename || null);
      return reply.status(201).send({ message: message('files.uploaded', req.lang), data: file });
    },
  );

  app.get('/files/:id', { config: { auth: 'user' }, schema: { tags, summary: 'Download my uploaded file', params: idParams } }, async (req, reply) => {
    const { row, stream } = await svc.open(app.requireUser(req).id, req.params.id);
    return reply
      .header('content-type', row.mime)
      .header('content-length', row.size)
      .header('cache-control', 'private, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', `inline; filename="${row.id}.${extensionOf(row.mime)}"`)
      .send(stream);
  });
}
