import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  defaultDigitSystem,
  ERRORS,
  errorMessage,
  findUnstorableText,
  localizeValidationMessage,
  type DigitSystem,
  type ErrorCode,
  type Language,
} from '@masar/shared';
import { AppError } from '../lib/errors.ts';

const arLocale = z.locales.ar();
const enLocale = z.locales.en();

/** zod's numeric issue params (limits, divisors) written in `digits`, for its locale's text. */
function paramsInDigits(params: Record<string, unknown>, lang: Language, digits: DigitSystem): Record<string, unknown> {
  const out = { ...params };
  const fmt = new Intl.NumberFormat(lang === 'ar' ? 'ar-SA' : 'en-SA', { numberingSystem: digits, useGrouping: false, maximumFractionDigits: 20 });
  for (const k of ['minimum', 'maximum', 'divisor', 'limit']) if (typeof out[k] === 'number') out[k] = fmt.format(out[k]);
  return out;
}

const localeText = (locale: typeof arLocale, raw: Record<string, unknown>): string | undefined => {
  try {
    const out = locale.localeError(raw as never);
    return typeof out === 'string' ? out : (out as { message?: string } | undefined)?.message;
  } catch {
    return undefined;
  }
};

/**
 * Localize one validation issue: our own keys (v.*) from the shared catalogue, zod's built-in
 * messages through zod's Arabic locale when the client asked for Arabic. Their numbers (limits)
 * are written in `digits`, the reader's digit system (issue 9).
 */
export function localizeIssue(
  issue: { message: string; code?: string; params?: Record<string, unknown> },
  lang: Language,
  digits: DigitSystem = defaultDigitSystem(lang),
): string {
  if (issue.message.startsWith('v.')) return localizeValidationMessage(issue.message, lang, digits);
  if (!issue.code) return issue.message;
  const raw = { code: issue.code, ...(issue.params ?? {}), message: issue.message };
  if (lang === 'ar') return localeText(arLocale, paramsInDigits(raw, lang, digits)) ?? issue.message;
  // English: zod's own text (not a schema's custom message) is rewritten only for a reader of Arabic-Indic digits
  if (digits === 'arab' && localeText(enLocale, raw) === issue.message) return localeText(enLocale, paramsInDigits(raw, lang, digits)) ?? issue.message;
  return issue.message;
}

/** Turn a ZodError (thrown by a service) into the API's `errors` list. */
export function zodIssuesToErrors(err: z.ZodError, lang: Language, digits: DigitSystem = defaultDigitSystem(lang)) {
  return err.issues.map((i) => ({
    path: i.path.join('.'),
    message: localizeIssue({ message: i.message, code: i.code, params: i as unknown as Record<string, unknown> }, lang, digits),
  }));
}

/**
 * One error handler (DESIGN §3): AppError → its catalogue status and localized message;
 * request validation → 400 VALIDATION_FAILED with per-field `errors`; rate limit → 429;
 * anything else → 500 with the internals hidden (logged).
 */
/** Fastify's own client errors → our catalogue, so they get the same localized envelope. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_BAD_URL: 'BAD_URL',
  FST_ERR_ASYNC_CONSTRAINT: 'BAD_REQUEST',
};

export default fp(async (app) => {
  // Strings PostgreSQL cannot store (NUL, lone surrogates) are a 400 at their path before any
  // route schema or SQL sees them (the rule lives in packages/shared/src/input.ts).
  app.addHook('preValidation', async (req) => {
    for (const [part, value] of [
      ['body', req.body],
      ['query', req.query],
      ['params', req.params],
    ] as const) {
      const path = findUnstorableText(value);
      if (path) {
        const p = [part === 'body' ? [] : [part], path].flat().join('.');
        throw new AppError('VALIDATION_FAILED', { errors: [{ path: p, message: localizeValidationMessage('v.textInvalid', req.lang ?? 'en', req.digits) }] });
      }
    }
  });

  app.setErrorHandler((err, req, reply) => {
    const lang = req.lang ?? 'en';
    const digits = req.digits ?? defaultDigitSystem(lang);
    const send = (code: ErrorCode, status?: number, errors?: { path: string; message: string }[]) =>
      reply.status(status ?? ERRORS[code].status).send({ message: errorMessage(code, lang, digits), code, ...(errors?.length ? { errors } : {}) });

    // a service's field errors carry validation keys (v.…) like the schemas: localized here the same way
    if (err instanceof AppError)
      return send(
        err.code,
        err.details?.status,
        err.details?.errors?.map((e) => ({ ...e, message: localizeValidationMessage(e.message, lang, digits) })),
      );
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors = err.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: localizeIssue({ message: v.message ?? '', code: v.keyword, params: v.params }, lang, digits),
      }));
      return send('VALIDATION_FAILED', 400, errors);
    }
    if (err instanceof z.ZodError) return send('VALIDATION_FAILED', 400, zodIssuesToErrors(err, lang, digits));
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (e.statusCode === 429) return send('RATE_LIMITED', 429);
    if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'response did not match its schema');
      return send('SOMETHING_WENT_WRONG', 500);
    }
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      // Fastify's own 4xx (bad JSON, body too large, unsupported media type, malformed URL…)
      const code: ErrorCode = (e.code ? FASTIFY_CODES[e.code] : undefined) ?? 'BAD_REQUEST';
      return send(code, code === 'BAD_REQUEST' ? e.statusCode : undefined);
    }
    req.log.error({ err }, 'unhandled error');
    return send('SOMETHING_WENT_WRONG', 500);
  });
});
