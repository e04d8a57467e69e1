import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_DB_FREE } from '../../vitest.config.ts';

const ROOT = join(import.meta.dirname, '../..');
/** What a server test uses to open a database or a server: the test helpers, PGlite, a child server. */
const OPENS_A_DATABASE =
  /createTestApp|createTestDatabase|openDatabase|PGlite|startChildServer|TEST_DB_ENGINE|from '\.\/helpers|test\/helpers|fixtures\.ts|testkit/;

describe('server test files run on PGlite only (SERVER_DB_FREE in vitest.config.ts)', () => {
  it.each(SERVER_DB_FREE)('%s exists and opens no database', (file) => {
    expect(existsSync(join(ROOT, file)), `${file} is listed but missing`).toBe(true);
    expect(readFileSync(join(ROOT, file), 'utf8'), `${file} opens a database: remove it from SERVER_DB_FREE so it runs on PostgreSQL too`).not.toMatch(
      OPENS_A_DATABASE,
    );
  });

  it('the pattern finds a file that opens a database', () => {
    expect(readFileSync(join(ROOT, 'apps/server/src/modules/loads/board-circle.test.ts'), 'utf8')).toMatch(OPENS_A_DATABASE);
  });
});
