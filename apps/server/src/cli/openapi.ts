/**
 * Write the OpenAPI document of the API (the one served at /api/docs/json) to a file:
 *
 *   npm run api:openapi            # packages/api-client/openapi.json
 *
 * Builds the app on an empty in-memory database without starting jobs: the document is made
 * from the routes' shared zod schemas, so it needs no data. `npm run api:client` then generates
 * the typed client's types from it; a test checks both are current.
 */
import '../lib/require-node.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../app.ts';
import { loadConfig, REPO_ROOT } from '../config.ts';
import { openDatabase } from '../db/client.ts';

export const OPENAPI_FILE = join(REPO_ROOT, 'packages/api-client/openapi.json');

/** The OpenAPI document as the server serves it. */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const database = await openDatabase({ dataDir: 'memory://' });
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory://', DEMO_SEED: '0', JOBS: '0', WEB_DIST: '/nonexistent' },
    { jwtSecret: 'openapi-export-openapi-export-openapi-0000' },
  );
  const app = await buildApp({ config, database, logger: false });
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    await database.close();
  }
}

/** The document as written to OPENAPI_FILE (stable key order, trailing newline). */
export const serializeDocument = (doc: unknown) => `${JSON.stringify(doc, null, 2)}\n`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = process.argv[2] ?? OPENAPI_FILE;
  writeFileSync(out, serializeDocument(await openApiDocument()));
  console.log(`OpenAPI document written to ${out}`);
}
