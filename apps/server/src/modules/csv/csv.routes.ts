import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { fileTypeFromBuffer } from 'file-type';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CSV_EXPORT_TYPES,
  csvImportAccepted,
  csvImportTypeSchema,
  csvLangQuery,
  csvLogDetailQuery,
  csvLogDetailSchema,
  csvLogListResponse,
  csvLogsQuery,
  csvRetryBody,
  CSV_IMPORT_TYPES,
  ACCOUNT_TYPE,
  PROFILE_STATUS,
  envelope,
  idParams,
  message,
  type Language,
} from '@masar/shared';
import { AppError } from '../../lib/errors.ts';
import { templateCsv } from './csv.convert.ts';
import { readUpload } from '../../lib/upload.ts';

const MAX_CSV_BYTES = 50 * 1024 * 1024;

/**
 * A CSV by extension AND content (spec §5 "bulk upload accepts CSV only"): a .csv name, no
 * binary signature (file-type finds none: not xlsx/zip/pdf/image…), valid UTF-8 without NUL
 * bytes, and a header line with at least two delimited columns. Returns the text.
 */
export async function readCsvUpload(name: string | undefined, data: Buffer): Promise<string> {
  if (data.length === 0) throw new AppError('UPLOAD_FILE_FIRST');
  if (!name || !/\.csv$/i.test(name)) throw new AppError('UPLOAD_A_CSV');
  if (await fileTypeFromBuffer(data)) throw new AppError('UPLOAD_A_CSV');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw new AppError('UPLOAD_A_CSV');
  }
  if (text.includes('\0')) throw new AppError('UPLOAD_A_CSV');
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  if (!/[,;\t]/.test(firstLine)) throw new AppError('UPLOAD_A_CSV');
  return text;
}

/** CSV import/export and upload logs (issue 3; spec §2 /csv-logs, §3 CSV upload log, §5). */
export default async function csvRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  await app.register(multipart, { limits: { fileSize: MAX_CSV_BYTES, files: 1, fields: 5 } });
  const svc = app.container.services.csv;
  const auth = { auth: 'user' as const };
  const tags = ['csv'];
  const langOf = (q: { lang?: Language }, header: Language) => q.lang ?? header;
  const sendCsv = (reply: import('fastify').FastifyReply, name: string, body: string) =>
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}.csv"`)
      .header('cache-control', 'no-store')
      .send(body);

  app.post(
    '/csv/import',
    {
      // crash-safe replay (issue 22): the committed import log is answered and its job queued
      config: { ...auth, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Import a CSV (runs in the background)',
        description:
          'multipart/form-data: a `type` field (vendors, drivers, vehicles, trailers, shipments; or ?type=) then one `file`. CSV only, by extension and content: UPLOAD_A_CSV (415); no file: UPLOAD_FILE_FIRST. Answers 202 with the log id; poll GET /csv/logs/:id. English or Arabic headers. Shipments need an approved account with a plan, like POST /loads.',
        querystring: z.object({ type: csvImportTypeSchema.optional() }),
        consumes: ['multipart/form-data'],
        response: { 202: envelope(csvImportAccepted) },
      },
    },
    async (req, reply) => {
      const user = app.requireUser(req);
      const { data, part } = await readUpload(req, 'CSV_TOO_MANY_ROWS');
      const field = part.fields.type as { value?: unknown } | undefined;
      const type = csvImportTypeSchema.safeParse(req.query.type ?? field?.value);
      if (!type.success) throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'type', message: CSV_IMPORT_TYPES.join(', ') }] });
      const text = await readCsvUpload(part.filename, data);
      if (type.data === 'shipments') {
        // same gates as posting a load (spec §4/§6): approved account with a plan, shipper or broker
        if (user.accountType === ACCOUNT_TYPE.carrier) throw new AppError('WRONG_ROLE');
        if (user.status !== PROFILE_STATUS.approved) throw new AppError('ACCOUNT_NOT_APPROVED');
        if (!user.activeSubscriptionId) throw new AppError('PLAN_REQUIRED');
      }
      const out = await svc.startImport(user, type.data, part.filename.slice(0, 200), text);
      return reply.status(202).send({ message: message('csv.accepted', req.lang), data: out });
    },
  );

  app.get(
    '/csv/templates/:type',
    {
      config: auth,
      schema: {
        tags,
        summary: 'CSV template of a type (headers in ?lang=en|ar, UTF-8 with BOM)',
        params: z.object({ type: csvImportTypeSchema }),
        querystring: csvLangQuery,
      },
    },
    async (req, reply) => {
      const lang = langOf(req.query, req.lang);
      return sendCsv(reply, `${req.params.type}-template-${lang}`, templateCsv(req.params.type, lang));
    },
  );

  app.get(
    '/csv/export/:type',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Export my vendors, drivers, vehicles, trailers or loads as CSV (?lang=en|ar, UTF-8 with BOM)',
        params: z.object({ type: z.enum(CSV_EXPORT_TYPES) }),
        querystring: csvLangQuery,
      },
    },
    async (req, reply) => {
      const lang = langOf(req.query, req.lang);
      const body = await svc.exportCsv(app.requireUser(req), req.params.type, lang);
      return sendCsv(reply, `${req.params.type}-${new Date().toISOString().slice(0, 10)}`, body);
    },
  );

  app.get(
    '/csv/logs',
    { config: auth, schema: { tags, summary: 'My CSV upload logs, newest first', querystring: csvLogsQuery, response: { 200: envelope(csvLogListResponse) } } },
    async (req) => ({
      message: message('common.ok', req.lang),
      data: await svc.listLogs(app.requireUser(req), req.query.limit, req.query.skip, req.lang, req.digits),
    }),
  );
  app.get(
    '/csv/logs/:id',
    {
      config: auth,
      schema: {
        tags,
        summary: 'A CSV upload log with its failed rows (errors in the language header)',
        params: idParams,
        querystring: csvLogDetailQuery,
        response: { 200: envelope(csvLogDetailSchema) },
      },
    },
    async (req) => ({
      message: message('common.ok', req.lang),
      data: await svc.getLog(app.requireUser(req), req.params.id, req.query.limit, req.query.skip, req.lang, req.digits),
    }),
  );
  app.post(
    '/csv/logs/:id/retry',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Fix flow: resubmit edited failed rows',
        description:
          'rows: [{rowId, data}] with data = cells by field key (as in a failed row). Rows that pass leave the failed list; counts update. Answers the log with the rows still failing.',
        params: idParams,
        body: csvRetryBody,
        response: { 200: envelope(csvLogDetailSchema) },
      },
    },
    async (req) => ({
      message: message('csv.retried', req.lang),
      data: await svc.retry(app.requireUser(req), req.params.id, req.body.rows, req.lang, req.digits),
    }),
  );
}
