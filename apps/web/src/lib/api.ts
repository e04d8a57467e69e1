import type { ApiErrorBody } from '@masar/shared';
import { digitSystem } from './digits';

/** Error thrown by the API client: HTTP status plus the server's `{message, code, errors}`. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly errors: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Skip the token logic (guest sign-in, token regeneration themselves). */
  noAuth?: boolean;
  signal?: AbortSignal;
  /** Idempotency-Key of a create: reuse the same key when retrying, so nothing is done twice. */
  idempotencyKey?: string;
}

/** Hooks the session layer installs: how to get a token and what to do on 401/406. */
export interface TokenHandler {
  getAccessToken(): Promise<string | null>;
  /**
   * Called on 401/406 with the token the failed request carried (null: none) and whether the
   * request was already a retry; returns true when a retry may succeed (retried at most once).
   */
  onAuthError(status: 401 | 406, code: string, ctx: { usedToken: string | null; retried: boolean }): Promise<boolean>;
  language(): string;
  /** Sees every error the client throws (e.g. account suspended → the session shows its dialog). */
  onApiError?(err: ApiError): void;
}

let handler: TokenHandler = {
  getAccessToken: async () => null,
  onAuthError: async () => false,
  language: () => document.documentElement.lang || 'en',
};
export function setTokenHandler(h: TokenHandler) {
  handler = h;
}

function buildUrl(path: string, query?: Query) {
  const url = new URL(`/api/v1${path}`, window.location.origin);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  return url.toString();
}

function parseJson(text: string): Record<string, unknown> {
  if (!text) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * Like `request`, but returns the whole `{message, data}` envelope (the token logic needs the
 * message: "407" means keep the token).
 */
export async function requestEnvelope<T>(method: string, path: string, opts: RequestOptions = {}, retried = false): Promise<{ message: string; data: T }> {
  const lang = handler.language();
  // the reader's digit system as a BCP 47 extension (ar-u-nu-latn): the server writes the numbers
  // of its messages (limits, sizes) in it; `language` stays the plain en|ar every client sends
  const headers: Record<string, string> = {
    language: lang,
    'accept-language': `${lang}-u-nu-${digitSystem(lang)}`,
    currencycode: 'SAR',
    currencysymbol: 'SAR',
    platform: '3',
  };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  let usedToken: string | null = null;
  if (!opts.noAuth) {
    usedToken = await handler.getAccessToken();
    if (usedToken) headers.authorization = `Bearer ${usedToken}`;
  }
  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), {
      method,
      headers,
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      signal: opts.signal,
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    const err = new ApiError(0, 'NETWORK_ERROR', (e as Error).message || 'Network error');
    handler.onApiError?.(err);
    throw err;
  }
  const json = parseJson(await res.text()) as { message?: string; data?: T } & Partial<ApiErrorBody>;
  if (!res.ok) {
    if (!opts.noAuth && (res.status === 401 || res.status === 406)) {
      const retry = await handler.onAuthError(res.status, json.code ?? '', { usedToken, retried });
      if (retry && !retried) return requestEnvelope<T>(method, path, opts, true);
    }
    const err = new ApiError(res.status, json.code ?? 'SOMETHING_WENT_WRONG', json.message ?? res.statusText, json.errors ?? []);
    handler.onApiError?.(err);
    throw err;
  }
  return { message: json.message ?? '', data: json.data as T };
}

/**
 * Call the Masar API (`/api/v1` + path) and return `data` of the `{message, data}` envelope.
 * Sends the spec's standard headers (authorization, language, currencycode, platform).
 * Throws ApiError with the server's localized message (status 0, code NETWORK_ERROR when the
 * server cannot be reached).
 */
export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  return (await requestEnvelope<T>(method, path, opts)).data;
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>('GET', path, { query, signal }),
  post: <T>(path: string, body?: unknown, opts: Pick<RequestOptions, 'idempotencyKey'> = {}) => request<T>('POST', path, { body: body ?? {}, ...opts }),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, { body: body ?? {} }),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, { body: body ?? {} }),
  delete: <T>(path: string) => request<T>('DELETE', path),
};
