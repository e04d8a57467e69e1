import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { openDatabase, PGLITE_EXTENSIONS } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { loadReferenceData } from '../src/db/seed/reference.ts';

/**
 * Build one migrated database with reference data per run; every test file clones it
 * (PGlite: loadDataDir of a dump; PostgreSQL: CREATE DATABASE … TEMPLATE).
 */
export default async function setup(project: TestProject) {
  const engine = project.name.endsWith('postgres') ? 'postgres' : 'pglite';
  if (engine === 'pglite') {
    const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    const database = await openDatabase({ pglite: client });
    await migrate(database);
    await loadReferenceData(database.db);
    const dump = await client.dumpDataDir('none');
    const file = join(mkdtempSync(join(tmpdir(), 'masar-tpl-')), 'template.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await client.close();
    project.provide('pgliteTemplate', file);
    return;
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is required for the postgres project');
  const tpl = `masar_tpl_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop database if exists ${tpl}`);
  await admin.query(`create database ${tpl}`);
  const tplUrl = withDatabase(url, tpl);
  // earthdistance needs a superuser (STACK.md gotcha 5): provisioning does it, as here.
  const su = new pg.Client({ connectionString: tplUrl });
  await su.connect();
  await su.query('create extension if not exists cube; create extension if not exists earthdistance;');
  await su.end();
  const database = await openDatabase({ databaseUrl: tplUrl, poolMax: 2 });
  await migrate(database);
  await loadReferenceData(database.db);
  await database.close();
  project.provide('pgTemplate', tpl);
  return async () => {
    await admin.query(`drop database if exists ${tpl}`).catch(() => undefined);
    await admin.end();
  };
}

export function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string;
  }
}
