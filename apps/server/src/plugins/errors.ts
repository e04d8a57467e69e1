import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERRORS, errorMessage, localizeValidationMessage, type ErrorCode, type Language } from '@masar/shared';
import { AppError } from '../lib/errors.ts';

const arLocale = z.locales.ar();

/**
 * Localize one validation issue: our own keys (v.*) from the shared catalogue, zod's built-in
 * messages through zod's Arabic locale when the client asked for Arabic.
 */
export function localizeIssue(issue: { message: string; code?: string; params?: Record<string, unknown> }, lang: Language): string {
  if (issue.message.startsWith('v.')) return localizeValidationMessage(issue.message, lang);
  if (lang === 'ar' && issue.code) {
    try {
      const out = arLocale.localeError({ code: issue.code, ...(issue.params ?? {}), message: issue.message } as never);
      const text = typeof out === 'string' ? out : (out as { message?: string } | undefined)?.message;
      if (text) return text;
    } catch {
      /* fall through to the English text */
    }
  }
  return issue.message;
}

/** Turn a ZodError (thrown by a service) into the API's `errors` list. */
export function zodIssuesToErrors(err: z.ZodError, lang: Language) {
  return err.issues.map((i) => ({
    path: i.path.join('.'),
    message: localizeIssue({ message: i.message, code: i.code, params: i as unknown as Record<string, unknown> }, lang),
  }));
}

/**
 * One error handler (DESIGN §3): AppError → its catalogue status and localized message;
 * request validation → 400 VALIDATION_FAILED with per-field `errors`; rate limit → 429;
 * anything else → 500 with the internals hidden (logged).
 */
export default fp(async (app) => {
  app.setErrorHandler((err, req, reply) => {
    const lang = req.lang ?? 'en';
    const send = (code: ErrorCode, status?: number, errors?: { path: string; message: string }[]) =>
      reply.status(status ?? ERRORS[code].status).send({ message: errorMessage(code, lang), code, ...(errors?.length ? { errors } : {}) });

    if (err instanceof AppError) return send(err.code, err.details?.status, err.details?.errors);
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors = err.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: localizeIssue({ message: v.message ?? '', code: v.keyword, params: v.params }, lang),
      }));
      return send('VALIDATION_FAILED', 400, errors);
    }
    if (err instanceof z.ZodError) return send('VALIDATION_FAILED', 400, zodIssuesToErrors(err, lang));
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (e.statusCode === 429) return send('RATE_LIMITED', 429);
    if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'response did not match its schema');
      return send('SOMETHING_WENT_WRONG', 500);
    }
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      // Fastify's own 4xx (bad JSON, body too large, unsupported media type…)
      return reply.status(e.statusCode).send({ message: lang === 'ar' ? errorMessage('BAD_REQUEST', 'ar') : (e.message ?? errorMessage('BAD_REQUEST')), code: e.code ?? 'BAD_REQUEST' });
    }
    req.log.error({ err }, 'unhandled error');
    return send('SOMETHING_WENT_WRONG', 500);
  });
});
