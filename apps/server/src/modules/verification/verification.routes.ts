import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { documentTypeParams, envelope, verificationDocumentBody, verificationSchema, message } from '@masar/shared';

/** Business verification (issue 8; spec §2 /profile-approval). A pending account may use these. */
export default async function verificationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.verification;
  const config = { auth: 'user' as const, sessionOnly: true };
  const tags = ['verification'];

  app.get(
    '/profile-approval',
    {
      config,
      schema: { tags, summary: 'My business verification: documents, state, the reason of a rejection', response: { 200: envelope(verificationSchema) } },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.status(app.requireUser(req)) }),
  );
  app.put(
    '/profile-approval/documents/:type',
    {
      config,
      schema: {
        tags,
        summary: 'Give or replace one business document',
        description:
          'Upload the file first (POST /files, purpose business-document: PDF, JPG or PNG up to 5 MB), then name it here. INVALID_FILE when the file is not yours.',
        params: documentTypeParams,
        body: verificationDocumentBody,
        response: { 200: envelope(verificationSchema) },
      },
    },
    async (req) => ({
      message: message('verification.uploaded', req.lang),
      data: await svc.putDocument(app.requireUser(req), req.params.type, req.body.fileId),
    }),
  );
  app.post(
    '/profile-approval/submit',
    {
      config,
      schema: {
        tags,
        summary: 'Send my documents for review',
        description: 'DOCUMENTS_INCOMPLETE until every required document is uploaded and none waits for a re-upload.',
        response: { 200: envelope(verificationSchema) },
      },
    },
    async (req) => ({ message: message('verification.submitted', req.lang), data: await svc.submit(app.requireUser(req)) }),
  );
}
