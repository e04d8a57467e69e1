import type { ApiErrorBody } from '@masar/shared';

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
}

/** Hooks the session layer installs: how to get a token and what to do on 401/406. */
export interface TokenHandler {
  getAccessToken(): Promise<string | null>;
  /** Called on 401/406; returns true when a retry may succeed. */
  onAuthError(status: 401 | 406, code: string): Promise<boolean>;
  language(): string;
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

/**
 * Call the Masar API (`/api/v1` + path) and return `data` of the `{message, data}` envelope.
 * Sends the spec's standard headers (authorization, language, currencycode, platform).
 * Throws ApiError with the server's localized message.
 */
export async function request<T>(method: string, path: string, opts: RequestOptions = {}, retried = false): Promise<T> {
  const headers: Record<string, string> = { language: handler.language(), currencycode: 'SAR', currencysymbol: 'SAR', platform: '3' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (!opts.noAuth) {
    const token = await handler.getAccessToken();
    if (token) headers.authorization = `Bearer ${token}`;
  }
  const res = await fetch(buildUrl(path, opts.query), { method, headers, body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined, signal: opts.signal });
  const text = await res.text();
  const json = text ? (JSON.parse(text) as { data?: T } & Partial<ApiErrorBody>) : {};
  if (!res.ok) {
    if (!opts.noAuth && !retried && (res.status === 401 || res.status === 406) && (await handler.onAuthError(res.status, json.code ?? ''))) {
      return request<T>(method, path, opts, true);
    }
    throw new ApiError(res.status, json.code ?? 'SOMETHING_WENT_WRONG', json.message ?? res.statusText, json.errors ?? []);
  }
  return json.data as T;
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>('GET', path, { query, signal }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body: body ?? {} }),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, { body: body ?? {} }),
  delete: <T>(path: string) => request<T>('DELETE', path),
};
