import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config.ts';
import { ENGINE } from '../../test/helpers.ts';
import { OPENAPI_FILE, openApiDocument, serializeDocument } from './openapi.ts';

// The typed client (packages/api-client) is generated from the document; both are committed so
// integrators and the web can use them without a server. They must match the code.
// the document does not depend on the database engine: checked once, in the PGlite project
describe.skipIf(ENGINE !== 'pglite')('the committed OpenAPI document and typed client', () => {
  it('are current (run `npm run api:client` after changing a route or a shared schema)', async () => {
    const fresh = serializeDocument(await openApiDocument());
    expect(fresh === readFileSync(OPENAPI_FILE, 'utf8'), 'packages/api-client/openapi.json is stale: npm run api:client').toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'masar-openapi-'));
    writeFileSync(join(dir, 'openapi.json'), fresh);
    execFileSync(join(REPO_ROOT, 'node_modules/.bin/openapi-typescript'), [join(dir, 'openapi.json'), '-o', join(dir, 'schema.ts')], { stdio: 'pipe' });
    const committed = readFileSync(join(REPO_ROOT, 'packages/api-client/src/schema.ts'), 'utf8');
    expect(readFileSync(join(dir, 'schema.ts'), 'utf8') === committed, 'packages/api-client/src/schema.ts is stale: npm run api:client').toBe(true);
  }, 60_000);

  it('gives every operation an id, a summary, tags, security and its error responses', async () => {
    const doc = (await openApiDocument()) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const ids = new Set<string>();
    let n = 0;
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        n += 1;
        const where = `${method} ${path}`;
        expect(op.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
        expect(ids.has(op.operationId as string), `${where}: duplicate operationId`).toBe(false);
        ids.add(op.operationId as string);
        expect(op.summary, where).toBeTruthy();
        expect(op.tags, where).toHaveLength(1);
        expect(Array.isArray(op.security), where).toBe(true);
        const responses = op.responses as Record<string, { description: string }>;
        expect(
          Object.keys(responses).some((s) => s.startsWith('2')),
          where,
        ).toBe(true);
        expect(responses['400']?.description, where).toContain('VALIDATION_FAILED');
      }
    expect(n).toBeGreaterThan(80);
    // a domain code named in a route's description is listed under its status
    expect(doc.paths['/api/v1/offers'].post.responses).toMatchObject({ '409': { description: expect.stringContaining('DUPLICATE_OFFER') } });
  });
});
