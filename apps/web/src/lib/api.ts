import type { Client, Middleware } from 'openapi-fetch';
import type { paths } from '@masar/api-client';
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

/** Header a call sets to skip the token logic (guest sign-in, token regeneration, driver calls); never sent. */
const NO_AUTH = 'x-masar-no-auth';
/** Headers of a call that skips the token logic: `masar.POST(path, { body, headers: noAuth })`. */
export const noAuth = { [NO_AUTH]: '1' } as const;
/** Headers of a create: reuse the same key when retrying, so nothing is done twice. */
export const idempotent = (key: string) => ({ 'idempotency-key': key });

/**
 * Query strings as the server reads them: empty values (undefined, null, '') are left out,
 * arrays are comma-joined.
 */
function querySerializer(query: Record<string, unknown>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) sp.set(k, v.join(','));
    else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') sp.set(k, String(v));
  }
  return sp.toString();
}

/** The spec's standard headers (language, accept-language with the reader's digit system, currency, platform) and the bearer token. */
const masarHeaders: Middleware = {
  async onRequest({ request }) {
    const lang = handler.language();
    request.headers.set('language', lang);
    // the reader's digit system as a BCP 47 extension (ar-u-nu-latn): the server writes the numbers
    // of its messages (limits, sizes) in it; `language` stays the plain en|ar every client sends
    request.headers.set('accept-language', `${lang}-u-nu-${digitSystem(lang)}`);
    request.headers.set('currencycode', 'SAR');
    request.headers.set('currencysymbol', 'SAR');
    request.headers.set('platform', '3');
    if (request.headers.has(NO_AUTH)) return request;
    const token = await handler.getAccessToken();
    if (token) request.headers.set('authorization', `Bearer ${token}`);
    return request;
  },
};

const code = async (r: Response) =>
  (
    (await r
      .clone()
      .json()
      .catch(() => ({}))) as { code?: string }
  ).code ?? '';
const isAuthError = (r: Response): r is Response & { status: 401 | 406 } => r.status === 401 || r.status === 406;

/**
 * The network call under the typed client, with the token logic: on 401/406 the session may
 * refresh its token, then the call is retried once with the new one. It sees the final request
 * (body included, so uploads retry too) and sends it as `fetch(url, init)` with the body read into
 * memory (JSON as text): the browser then knows the body up front (devtools and test drivers show
 * it) and the retry can send it again. The global fetch is looked up on every call (tests stub it).
 */
async function fetchWithToken(request: Request): Promise<Response> {
  const skipAuth = request.headers.has(NO_AUTH);
  request.headers.delete(NO_AUTH);
  const headers = new Headers(request.headers);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
  const body = !hasBody ? undefined : (headers.get('content-type') ?? '').includes('json') ? await request.text() : await request.arrayBuffer();
  const send = () => globalThis.fetch(request.url, { method: request.method, headers, body, signal: request.signal, redirect: request.redirect });
  const first = await send();
  if (skipAuth) return first;
  const usedToken = headers.get('authorization')?.replace(/^Bearer /, '') ?? null;
  if (!isAuthError(first) || !(await handler.onAuthError(first.status, await code(first), { usedToken, retried: false }))) return first;
  const token = await handler.getAccessToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  else headers.delete('authorization');
  const second = await send();
  if (isAuthError(second)) await handler.onAuthError(second.status, await code(second), { usedToken: token, retried: true });
  return second;
}

let created: Promise<Client<paths>> | undefined;
/**
 * The openapi-fetch client, created once. openapi-fetch comes in its own small chunk, requested as
 * soon as this module runs (so it is there by the first call): that keeps it out of the entry
 * chunk, whose size is budgeted (tools/bundle: the home page's initial JS).
 */
function client(): Promise<Client<paths>> {
  return (created ??= import('openapi-fetch').then(
    ({ default: createClient }) => {
      const c = createClient<paths>({
        baseUrl: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
        querySerializer,
        fetch: fetchWithToken,
      });
      c.use(masarHeaders);
      return c;
    },
    (e: unknown) => {
      created = undefined; // a failed download may be retried
      throw e;
    },
  ));
}
if (typeof window !== 'undefined') void client().catch(() => undefined);

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';
const forward =
  (m: Method) =>
  (...args: unknown[]) =>
    client().then((c) => (c[m] as (...a: unknown[]) => Promise<unknown>)(...args));
/**
 * The typed client of the Masar API: every path, parameter, body and answer is typed from the
 * OpenAPI document (packages/api-client, `npm run api:client`). The ONLY way the web calls the API
 * (eslint forbids `fetch('/api…')`). Wrap a call in `unwrap` to get `data` of its envelope.
 *
 *   const load = await unwrap(masar.GET('/api/v1/loads/{id}', { params: { path: { id } } }));
 */
export const masar = {
  GET: forward('GET'),
  PUT: forward('PUT'),
  POST: forward('POST'),
  DELETE: forward('DELETE'),
  PATCH: forward('PATCH'),
  // the facade forwards each call unchanged to openapi-fetch's client: its types are the client's
} as Pick<Client<paths>, Method>;

/**
 * A per-call middleware sending `form` as the body (multipart/form-data: uploads, whose bodies the
 * OpenAPI document does not describe): `masar.POST('/api/v1/files', { middleware: [withForm(form)] })`.
 */
export const withForm = (form: FormData): Middleware => ({
  onRequest: ({ request }) => new Request(request, { method: request.method, body: form }),
});

type Answer<R> = R extends { data?: infer D } ? Exclude<D, undefined> : never;
/** `data` of a call's success envelope `{message, data}`, typed from the schema. */
export type Payload<R> = Answer<R> extends { data: infer P } ? P : never;

/**
 * Await a `masar` call and return it when it succeeded (`data` and `response`, e.g. a download's
 * blob and its Content-Disposition); throws ApiError with the server's localized message
 * (status 0, code NETWORK_ERROR when the server cannot be reached; an aborted call rethrows its
 * AbortError).
 */
export async function unwrapResponse<R extends { response: Response; error?: unknown }>(call: Promise<R>): Promise<R> {
  let r: R;
  try {
    r = await call;
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    const err = new ApiError(0, 'NETWORK_ERROR', (e as Error).message || 'Network error');
    handler.onApiError?.(err);
    throw err;
  }
  if (!r.response.ok) {
    const body = (typeof r.error === 'object' && r.error ? r.error : {}) as { message?: string; code?: string; errors?: { path: string; message: string }[] };
    const err = new ApiError(r.response.status, body.code ?? 'SOMETHING_WENT_WRONG', body.message ?? r.response.statusText, body.errors ?? []);
    handler.onApiError?.(err);
    throw err;
  }
  return r;
}

/** Await a `masar` call and return its `{message, data}` envelope (errors as `unwrapResponse`). */
export async function unwrapEnvelope<R extends { response: Response; error?: unknown }>(call: Promise<R>): Promise<Answer<R>> {
  const r = await unwrapResponse(call);
  return (r as { data?: unknown }).data as Answer<R>;
}

/** Await a `masar` call and return `data` of its envelope (errors as `unwrapEnvelope`). */
export async function unwrap<R extends { response: Response; error?: unknown }>(call: Promise<R>): Promise<Payload<R>> {
  const envelope = (await unwrapEnvelope(call)) as { data?: unknown } | undefined;
  return envelope?.data as Payload<R>;
}

/** The query parameters of `GET path`, typed from the schema (e.g. a list's filters). */
export type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;
/** The JSON body of `method path`, typed from the schema. */
export type BodyOf<P extends keyof paths, M extends 'post' | 'put' | 'patch'> = paths[P] extends {
  [K in M]: { requestBody?: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

/** `v` when it is one of `allowed` (e.g. a filter read from the URL), else undefined: a typed query value without an assertion. */
export function oneOf<T extends string>(allowed: readonly T[], v: string | null | undefined): T | undefined {
  return allowed.find((a) => a === v);
}
