import type { ErrorCode } from '@masar/shared';

/**
 * A typed domain error. The error plugin maps `code` to its HTTP status and localized message
 * from the shared catalogue (packages/shared/src/errors.ts).
 */
export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    public readonly details?: { errors?: { path: string; message: string }[]; status?: number },
  ) {
    super(code);
    this.name = 'AppError';
  }
}
