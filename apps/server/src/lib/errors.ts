import type { ErrorCode } from '@masar/shared';

/**
 * A typed domain error. The error plugin maps `code` to its HTTP status and localized message
 * from the shared catalogue (packages/shared/src/errors.ts).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: { errors?: { path: string; message: string }[]; status?: number };
  constructor(code: ErrorCode, details?: { errors?: { path: string; message: string }[]; status?: number }) {
    super(code);
    this.code = code;
    this.details = details;
    this.name = 'AppError';
  }
}

/** SQLSTATE of a database error (drivers and drizzle nest it in `cause`), e.g. '23505' unique violation. */
export function dbErrorCode(e: unknown): string | undefined {
  for (let c = e as { code?: unknown; cause?: unknown } | undefined, i = 0; c && i < 5; c = c.cause as typeof c, i++) {
    if (typeof c.code === 'string' && /^[0-9A-Z]{5}$/.test(c.code)) return c.code;
  }
  return undefined;
}
