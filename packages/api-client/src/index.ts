import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.ts';

export type { paths, components, operations } from './schema.ts';

/**
 * A typed client of the Masar API (docs/api.md): every path, parameter, body and answer is typed
 * from the OpenAPI document (`npm run api:client` regenerates `schema.ts`).
 *
 *   const masar = createMasarClient({ baseUrl: 'https://masar.example', apiKey: process.env.MASAR_KEY });
 *   const { data, error } = await masar.POST('/api/v1/loads', { body: load, headers: { 'Idempotency-Key': id } });
 *
 * `error` is the error envelope `{ message, code, errors? }`; `language: 'ar'` asks for Arabic messages.
 */
export function createMasarClient(opts: {
  baseUrl: string;
  apiKey?: string;
  accessToken?: string;
  language?: 'en' | 'ar';
  fetch?: typeof fetch;
}): Client<paths> {
  const headers: Record<string, string> = {};
  if (opts.apiKey) headers['x-api-key'] = opts.apiKey;
  if (opts.accessToken) headers.authorization = `Bearer ${opts.accessToken}`;
  if (opts.language) headers.language = opts.language;
  return createClient<paths>({ baseUrl: opts.baseUrl, headers, fetch: opts.fetch });
}
