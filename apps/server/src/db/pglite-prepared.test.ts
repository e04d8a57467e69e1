import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { ENGINE } from '../../test/helpers.ts';
import { preparedName, queryRows } from '../lib/sql.ts';
import { openDatabase, type Database } from './client.ts';
import { PGLITE_PREPARED_MAX, pglitePreparedNames } from './pglite-prepared.ts';

// Issue 24: on embedded PGlite a statement queryRows prepares (the board's, the circle's, my
// loads…) is parsed once under its name and planned as on the PostgreSQL pools, and answers with
// the rows drizzle's execute gives. Its own in-memory PGlite: checked once, in the PGlite project.

let d: Database;
let pg: PGlite;
const stats = async (prefix: string) =>
  d.query<{ name: string; generic_plans: number; custom_plans: number }>(
    `select name, generic_plans::int, custom_plans::int from pg_prepared_statements where name like $1 order by name`,
    [`${prefix}%`],
  );

beforeAll(async () => {
  pg = await PGlite.create();
  d = await openDatabase({ pglite: pg });
  await d.exec(`create table t (id int primary key, at timestamptz, amount numeric(10, 2), tags text[], doc jsonb, day date)`);
  await d.exec(
    `insert into t select g, timestamptz '2026-01-01 10:00+03' + g * interval '1 hour', g * 1.25, array['a', 'b' || g], jsonb_build_object('g', g), date '2026-02-01' + g from generate_series(1, 50) g`,
  );
});
afterAll(() => d?.close());

describe.skipIf(ENGINE !== 'pglite')('named prepared statements on PGlite (queryRows prepareAs)', () => {
  it('answers with the rows db.execute gives, types and nulls alike', async () => {
    const q = (from: number) =>
      sql`select id, at, amount, tags, doc, day, null::text as nothing, ${from}::int + 0 as arg from t where id > ${from} order by id limit ${5}`;
    const named = await queryRows<Record<string, unknown>>(d.db, q(40), 'parity');
    const res: unknown = await d.db.execute(q(40));
    const plain = (res as { rows: unknown[] }).rows;
    expect(named).toHaveLength(5);
    expect(named).toEqual(plain);
    // temporal values stay PostgreSQL's text, as drizzle's PGlite driver returns them
    expect(typeof named[0]?.at).toBe('string');
    expect(named[0]).toMatchObject({ id: 41, amount: '51.25', tags: ['a', 'b41'], doc: { g: 41 }, nothing: null, arg: 40 });
    // no rows: an empty list, not an error
    expect(await queryRows(d.db, q(100), 'parity')).toEqual([]);
  });

  it('parses once and plans by the caller’s choice: custom every call, or one generic plan reused', async () => {
    for (let i = 0; i < 7; i++) {
      await queryRows(d.db, sql`select count(*)::int as n from t where id > ${i}`, 'plan_custom');
      await queryRows(d.db, sql`select count(*)::int as n from t where id > ${i}`, 'plan_generic', 'generic');
    }
    const [custom] = await stats('plan_custom');
    const [generic] = await stats('plan_generic');
    // PostgreSQL's default would have switched the first to a generic plan after five executions
    expect(custom).toMatchObject({ custom_plans: 7, generic_plans: 0 });
    expect(generic).toMatchObject({ custom_plans: 0, generic_plans: 7 });
    expect(pglitePreparedNames(pg).filter((n) => n.startsWith('plan_'))).toHaveLength(2);
    // the generic mode was for those executions only: the session is back to custom plans
    expect(await d.query('show plan_cache_mode')).toEqual([{ plan_cache_mode: 'force_custom_plan' }]);
    expect(await queryRows(d.db, sql`select count(*)::int as n from t where id > ${45}`, 'plan_generic', 'generic')).toEqual([{ n: 5 }]);
  });

  it('rejects bad input with PostgreSQL’s error and leaves the session usable, in custom mode', async () => {
    const bad = queryRows(d.db, sql`select id from t where id = ${'not a number'}::int`, 'bad', 'generic');
    await expect(bad).rejects.toMatchObject({ code: '22P02' });
    await expect(queryRows(d.db, sql`select nope from t`, 'bad_parse')).rejects.toMatchObject({ code: '42703' });
    expect(pglitePreparedNames(pg).some((n) => n.startsWith('bad_parse_'))).toBe(false);
    expect(await d.query('show plan_cache_mode')).toEqual([{ plan_cache_mode: 'force_custom_plan' }]);
    expect(await queryRows(d.db, sql`select id from t where id = ${3}`, 'bad', 'generic')).toEqual([{ id: 3 }]);
  });

  it('prepares again when the session lost its statements (DEALLOCATE ALL)', async () => {
    const q = sql`select id from t where id = ${7}`;
    expect(await queryRows(d.db, q, 'lost')).toEqual([{ id: 7 }]);
    await d.exec('deallocate all');
    expect(await stats('lost')).toEqual([]);
    expect(await queryRows(d.db, q, 'lost')).toEqual([{ id: 7 }]);
    expect(await stats('lost')).toHaveLength(1);
  });

  it('runs beside transactions and inside one (there as an unnamed statement), with no deadlock', async () => {
    const inTx = d.db.transaction(async (tx) => {
      await tx.execute(sql`update t set amount = amount + 1 where id = 1`);
      // a transaction's own handle: the statement runs unnamed on the transaction's connection
      const [row] = await queryRows<{ amount: string }>(tx, sql`select amount from t where id = ${1}`, 'beside');
      return row.amount;
    });
    // 30 named calls race the transaction: they queue behind it and see its commit or nothing of it
    const beside = Promise.all(
      Array.from({ length: 30 }, (_, i) => queryRows<{ id: number }>(d.db, sql`select id from t where id = ${(i % 50) + 1}`, 'beside')),
    );
    const [amount, rows] = await Promise.all([inTx, beside]);
    expect(amount).toBe('2.25');
    expect(rows.map((r) => r[0].id)).toEqual(Array.from({ length: 30 }, (_, i) => (i % 50) + 1));
  });

  it('keeps at most PGLITE_PREPARED_MAX statements, dropping the least recently used', async () => {
    await queryRows(d.db, sql`select ${0}::int as k`, 'keep');
    for (let i = 0; i < PGLITE_PREPARED_MAX + 10; i++) {
      await queryRows(d.db, sql.raw(`select ${i} as k`), 'many');
      // the one used all along stays
      if (i % 100 === 0) await queryRows(d.db, sql`select ${0}::int as k`, 'keep');
    }
    const names = pglitePreparedNames(pg);
    expect(names).toHaveLength(PGLITE_PREPARED_MAX);
    const [{ n }] = await d.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements`);
    expect(n).toBe(PGLITE_PREPARED_MAX);
    expect(await stats('keep')).toHaveLength(1);
    // the first of the many went first, the last ones stay
    expect(names).not.toContain(preparedName('many', 'select 0 as k'));
    expect(names).toContain(preparedName('many', `select ${PGLITE_PREPARED_MAX + 9} as k`));
  });
});
