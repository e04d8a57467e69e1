import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import { newId } from '../src/lib/ids.ts';
import { createLedgerService, type LedgerService } from '../src/modules/ledger/ledger.service.ts';
import { createTestDatabase } from './helpers.ts';

// The ledger (issue 50; docs/billing.md "Payment protection and the ledger"): balanced,
// append-only and idempotent, enforced by the database itself. Runs on PGlite and PostgreSQL.

let database: Database;
let ledger: LedgerService;
beforeAll(async () => {
  database = await createTestDatabase();
  ledger = createLedgerService({ db: database.db });
});
afterAll(() => database?.close());

const shipper = newId();
const carrier = newId();
const fund = (factId: string, amount: number) => ({
  factKind: 'test.funded',
  factId,
  memo: 'funding',
  postings: [
    { owner: null, account: 'funding' as const, amount: -amount },
    { owner: shipper, account: 'escrow_held' as const, amount },
  ],
});

describe('the ledger', () => {
  it('posts a balanced journal; balances are the sums of postings', async () => {
    const r = await database.db.transaction((tx) => ledger.post(tx, fund('f1', 115_000)));
    expect(r.posted).toBe(true);
    await database.db.transaction((tx) =>
      ledger.post(tx, {
        factKind: 'test.released',
        factId: 'f1',
        postings: [
          { owner: shipper, account: 'escrow_held', amount: -115_000 },
          { owner: carrier, account: 'payable', amount: 100_000 },
          { owner: carrier, account: 'vat', amount: 15_000 },
        ],
      }),
    );
    expect(await ledger.balances(shipper)).toEqual({ items: [{ account: 'escrow_held', balanceHalalas: 0, balanceSar: '0.00' }] });
    expect((await ledger.balances(carrier)).items).toEqual([
      { account: 'payable', balanceHalalas: 100_000, balanceSar: '1000.00' },
      { account: 'vat', balanceHalalas: 15_000, balanceSar: '150.00' },
    ]);
    expect(await ledger.balanceOf(database.db, null, 'funding')).toBe(-115_000);
  });

  it('posts a fact once: 20 parallel posts of one fact leave one journal', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => database.db.transaction((tx) => ledger.post(tx, fund('race', 500)))));
    expect(results.filter((r) => r.posted)).toHaveLength(1);
    expect(new Set(results.map((r) => r.journalId)).size).toBe(1);
    const [{ n }] = await database.query<{ n: number }>(`select count(*)::int as n from ledger_journals where fact_kind = 'test.funded' and fact_id = 'race'`);
    expect(n).toBe(1);
    expect(await ledger.balanceOf(database.db, shipper, 'escrow_held')).toBe(500);
  });

  it('refuses an unbalanced journal: in the service, in ledger_post, and at commit for raw inserts', async () => {
    const bad = { ...fund('bad', 100), postings: [...fund('bad', 100).postings, { owner: carrier, account: 'payable' as const, amount: 1 }] };
    await expect(database.db.transaction((tx) => ledger.post(tx, bad))).rejects.toThrow(/sum to zero/);
    await expect(
      database.query(`select ledger_post($1::uuid, 'test.bad', 'x', '', '[{"owner":null,"account":"funding","amount":5}]'::jsonb)`, [newId()]),
    ).rejects.toThrow(/need >= 2 summing to 0/);
    const id = newId();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into ledger_journals (id, fact_kind, fact_id) values (${id}, 'test.raw', 'r1')`);
        await tx.execute(
          sql`insert into ledger_postings (journal_id, owner_id, account, amount_halalas) values (${id}, null, 'funding', -7), (${id}, ${carrier}, 'wallet', 6)`,
        );
      }),
    ).rejects.toThrow();
    // a journal with no postings at all is refused at commit too
    await expect(
      database.db.transaction((tx) => tx.execute(sql`insert into ledger_journals (id, fact_kind, fact_id) values (${newId()}, 'test.raw', 'r2')`)),
    ).rejects.toThrow();
    const [{ n }] = await database.query<{ n: number }>(`select count(*)::int as n from ledger_journals where fact_kind in ('test.raw', 'test.bad')`);
    expect(n).toBe(0);
  });

  it('is append-only: UPDATE, DELETE and TRUNCATE of entries are refused', async () => {
    await expect(database.query(`update ledger_postings set amount_halalas = amount_halalas * 2`)).rejects.toThrow(/append-only/);
    await expect(database.query(`delete from ledger_postings`)).rejects.toThrow(/append-only/);
    await expect(database.query(`update ledger_journals set memo = 'x'`)).rejects.toThrow(/append-only/);
    await expect(database.query(`delete from ledger_journals`)).rejects.toThrow(/append-only/);
    await expect(database.query(`truncate ledger_postings`)).rejects.toThrow(/append-only/);
  });

  it('balances to zero per currency (the trial balance)', async () => {
    const tb = await ledger.trialBalance();
    expect(tb).toEqual([{ currency: 'SAR', total: 0, postings: 7, journals: 3 }]);
  });
});
