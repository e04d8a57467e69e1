import {
  CSV_COLUMNS,
  ERRORS,
  errorMessage,
  isValidationKey,
  localizeValidationMessage,
  type CsvExportType,
  type CsvImportType,
  type CsvLog,
  type ErrorCode,
  type Language,
  type Load,
} from '@masar/shared';
import type { z } from 'zod';
import type { createLoadBody } from '@masar/shared';
import type { Db } from '../../db/client.ts';
import type { CurrentUser } from '../../plugins/auth.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { FleetService } from '../fleet/fleet.service.ts';
import type { LoadsService } from '../loads/loads.service.ts';
import type { VendorsService } from '../vendors/vendors.service.ts';
import { cityNamesByIds } from '../reference/reference.service.ts';
import { mapHeaders, parseCsv, rowCells, toCell, validateRow, writeCsv, type RowError } from './csv.convert.ts';
import * as repo from './csv.repository.ts';

/** Valid rows are inserted this many per transaction (a failing chunk is retried row by row). */
export const CSV_CHUNK = 500;
export const CSV_MAX_ROWS = 100_000;

/** Localize a stored row error at read time (v.* key, error code, or zod's text). */
export function localizeRowError(e: RowError, lang: Language) {
  const message = isValidationKey(e.code) ? localizeValidationMessage(e.code, lang) : e.code in ERRORS ? errorMessage(e.code as ErrorCode, lang) : e.code;
  return { path: e.path, code: e.code, message };
}

const toLog = (r: repo.CsvLogRow, lang: Language): CsvLog => ({
  id: r.id,
  type: r.type,
  fileName: r.fileName,
  status: r.status,
  total: r.total,
  processing: r.status === 'processing' ? Math.max(0, r.total - r.succeeded - r.failed) : 0,
  succeeded: r.succeeded,
  failed: r.failed,
  error: r.error ? (r.error in ERRORS ? errorMessage(r.error as ErrorCode, lang) : r.error) : null,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/**
 * A tiny in-process job queue: imports run one after another in the background of the API
 * process (the 202 answer does not wait). `idle()` resolves when nothing is running; the app
 * awaits it on close. pg-boss replaces it when jobs must survive a restart (DESIGN §1).
 */
export function createQueue() {
  let tail: Promise<void> = Promise.resolve();
  return {
    push(job: () => Promise<void>) {
      tail = tail.then(job, job).catch(() => undefined);
    },
    idle: () => tail,
  };
}

interface Deps {
  db: Db;
  fleet: FleetService;
  vendors: VendorsService;
  loads: LoadsService;
  log?: { error: (obj: unknown, msg: string) => void };
}

/**
 * Bulk CSV import / export (spec §2, §3 CSV upload log, §4, §5; issue 3). Rows are validated with
 * the form schemas (csv.convert.ts); a row is all or nothing; good rows are never lost because of
 * bad ones.
 */
export function createCsvService(deps: Deps) {
  const { db } = deps;
  const queue = createQueue();

  /** Insert validated rows of one type in one transaction (throws on any failure). */
  async function insert(user: CurrentUser, type: CsvImportType, values: unknown[]) {
    if (type === 'vendors') await deps.vendors.bulkInsert(user, values as never);
    else if (type === 'shipments') {
      // the loads service creates one load per call (its own transaction)
      for (const v of values) await deps.loads.create(user, v as z.output<typeof createLoadBody>);
    } else await deps.fleet.bulkInsert(user, type, values);
  }
  const errorOf = (e: unknown): RowError => ({ path: '', code: e instanceof AppError ? e.code : 'SOMETHING_WENT_WRONG' });

  /** Insert good rows in chunks; a chunk that fails is retried row by row. Returns failed rows. */
  async function insertGood(
    user: CurrentUser,
    type: CsvImportType,
    logId: string,
    good: { rowNumber: number; cells: Record<string, string>; value: unknown }[],
  ) {
    const chunk = type === 'shipments' ? 1 : CSV_CHUNK;
    for (let i = 0; i < good.length; i += chunk) {
      const part = good.slice(i, i + chunk);
      let ok = 0;
      const failed: { rowNumber: number; cells: Record<string, string>; errors: RowError[] }[] = [];
      try {
        await insert(
          user,
          type,
          part.map((g) => g.value),
        );
        ok = part.length;
      } catch (e) {
        if (part.length === 1) failed.push({ ...part[0], errors: [errorOf(e)] });
        else
          for (const g of part) {
            try {
              await insert(user, type, [g.value]);
              ok += 1;
            } catch (e2) {
              failed.push({ ...g, errors: [errorOf(e2)] });
            }
          }
      }
      if (failed.length)
        await repo.insertFailedRows(
          db,
          failed.map((f) => ({ id: newId(), logId, rowNumber: f.rowNumber, data: f.cells, errors: f.errors })),
        );
      await repo.bumpCounts(db, logId, ok, failed.length);
    }
  }

  async function run(user: CurrentUser, logId: string, type: CsvImportType, text: string) {
    try {
      const { headers, rows } = parseCsv(text);
      const { byHeader, missing } = mapHeaders(type, headers);
      if (rows.length === 0) return await repo.updateLog(db, logId, { status: 'failed', error: 'CSV_EMPTY' });
      if (missing.length) return await repo.updateLog(db, logId, { status: 'failed', error: 'CSV_BAD_HEADERS', total: rows.length });
      if (rows.length > CSV_MAX_ROWS) return await repo.updateLog(db, logId, { status: 'failed', error: 'CSV_TOO_MANY_ROWS', total: rows.length });
      await repo.updateLog(db, logId, { total: rows.length });
      // Window by window: validate CSV_CHUNK rows, store the bad ones, insert the good ones, then
      // yield to the event loop so a 100,000-row import never blocks the API (counts grow as it goes).
      for (let start = 0; start < rows.length; start += CSV_CHUNK) {
        const good: { rowNumber: number; cells: Record<string, string>; value: unknown }[] = [];
        const bad: { rowNumber: number; cells: Record<string, string>; errors: RowError[] }[] = [];
        rows.slice(start, start + CSV_CHUNK).forEach((raw, j) => {
          const cells = rowCells(raw, byHeader);
          const r = validateRow(type, cells);
          if (r.ok) good.push({ rowNumber: start + j + 1, cells, value: r.value });
          else bad.push({ rowNumber: start + j + 1, cells, errors: r.errors });
        });
        if (bad.length) {
          await repo.insertFailedRows(
            db,
            bad.map((b) => ({ id: newId(), logId, rowNumber: b.rowNumber, data: b.cells, errors: b.errors })),
          );
          await repo.bumpCounts(db, logId, 0, bad.length);
        }
        await insertGood(user, type, logId, good);
        await new Promise((r) => setImmediate(r));
      }
      await repo.updateLog(db, logId, { status: 'completed' });
    } catch (e) {
      deps.log?.error({ err: e }, 'csv import failed');
      await repo.updateLog(db, logId, { status: 'failed', error: 'SOMETHING_WENT_WRONG' }).catch(() => undefined);
    }
  }

  const svc = {
    queue,
    /** Mark imports killed by a restart as failed (CSV_INTERRUPTED) instead of processing forever. */
    recoverStale: (staleMs = 10 * 60_000) => repo.failStaleLogs(db, staleMs),
    /** Create the log and queue the work; answers at once (202). */
    async startImport(user: CurrentUser, type: CsvImportType, fileName: string | null, text: string) {
      const id = newId();
      await repo.insertLog(db, { id, ownerId: user.id, type, fileName, status: 'processing' });
      queue.push(() => run(user, id, type, text));
      return { id, status: 'processing' as const };
    },
    async listLogs(user: CurrentUser, limit: number, skip: number, lang: Language) {
      const { items, total } = await repo.listLogs(db, user.id, limit, skip);
      return { items: items.map((r) => toLog(r, lang)), total };
    },
    async getLog(user: CurrentUser, id: string, limit: number, skip: number, lang: Language) {
      const log = await repo.getLog(db, user.id, id);
      if (!log) throw new AppError('NOT_FOUND');
      const rows = await repo.failedRows(db, id, limit, skip);
      return {
        ...toLog(log, lang),
        rowsTotal: rows.total,
        rows: rows.items.map((r) => ({ id: r.id, rowNumber: r.rowNumber, data: r.data, errors: r.errors.map((e) => localizeRowError(e, lang)) })),
      };
    },
    /**
     * The fix flow: resubmit edited failed rows (cells by field key). Each row is validated and
     * inserted on its own; passing rows leave the failed list and move to succeeded.
     */
    async retry(user: CurrentUser, id: string, rows: { rowId: string; data: Record<string, string> }[], lang: Language) {
      const log = await repo.getLog(db, user.id, id);
      if (!log) throw new AppError('NOT_FOUND');
      if (log.status === 'processing') throw new AppError('VALIDATION_FAILED', { status: 409 });
      const stored = new Map(
        (
          await repo.failedRowsByIds(
            db,
            id,
            rows.map((r) => r.rowId),
          )
        ).map((r) => [r.id, r]),
      );
      if (stored.size !== new Set(rows.map((r) => r.rowId)).size) throw new AppError('NOT_FOUND');
      for (const r of rows) {
        const cells = Object.fromEntries(
          Object.entries(r.data)
            .map(([k, v]) => [k, String(v).trim()] as const)
            .filter(([, v]) => v !== ''),
        );
        const v = validateRow(log.type, cells);
        let errors: RowError[] | null = v.ok ? null : v.errors;
        if (v.ok) {
          try {
            await insert(user, log.type, [v.value]);
          } catch (e) {
            errors = [errorOf(e)];
          }
        }
        if (errors) await repo.updateFailedRow(db, r.rowId, cells, errors);
        else {
          await db.transaction(async (tx) => {
            await repo.deleteFailedRow(tx, r.rowId);
            await repo.bumpCounts(tx, id, 1, -1);
          });
        }
      }
      return svc.getLog(user, id, 500, 0, lang);
    },

    /** CSV of a type in `lang`, UTF-8 with BOM; columns of the import template (round trip). */
    async exportCsv(user: CurrentUser, type: CsvExportType, lang: Language): Promise<string> {
      if (type === 'loads') return exportLoads(user, lang);
      const cols = CSV_COLUMNS[type];
      let records: Record<string, unknown>[] = [];
      if (type === 'vendors') records = await deps.vendors.all(user);
      else {
        const all: Record<string, unknown>[] = [];
        for (let skip = 0; ; skip += 100) {
          const page =
            type === 'vehicles'
              ? await deps.fleet.listVehicles(user, { limit: 100, skip })
              : type === 'trailers'
                ? await deps.fleet.listTrailers(user, { limit: 100, skip })
                : await deps.fleet.listDrivers(user, { limit: 100, skip });
          all.push(...(page.items as unknown as Record<string, unknown>[]));
          if (page.items.length < 100) break;
        }
        records = all.reverse();
      }
      // structured cells name their cities (office locations): one lookup for the whole file
      const cityIds = records.flatMap((r) => cols.filter((c) => c.kind === 'json').flatMap((c) => collectCityIds(r[c.key])));
      const names = await cityNamesByIds(db, cityIds, lang);
      return writeCsv(
        cols.map((c) => c[lang]),
        records.map((r) => cols.map((c) => toCell(c, r[c.key], lang, { cityName: (id) => names.get(id) }))),
      );
    },
  };

  async function exportLoads(user: CurrentUser, lang: Language) {
    const heads =
      lang === 'ar'
        ? [
            'الرقم المرجعي',
            'الحالة',
            'نوع الحمولة',
            'نوع المعدة',
            'مدينة التحميل',
            'مدينة التنزيل',
            'تاريخ التحميل',
            'تاريخ التنزيل',
            'السعر (ريال)',
            'المسافة (كم)',
            'السعر لكل كم',
            'الوزن (كجم)',
            'تعليقات',
          ]
        : [
            'Reference',
            'Status',
            'Load type',
            'Equipment type',
            'Pickup city',
            'Drop city',
            'Pickup date',
            'Drop date',
            'Price (SAR)',
            'Distance (km)',
            'Rate per km',
            'Weight (kg)',
            'Comments',
          ];
    const seen = new Set<string>();
    const rows: string[][] = [];
    for (const tab of ['posted', 'unposted', 'active', 'finished'] as const) {
      for (let skip = 0; ; skip += 100) {
        const page = (await deps.loads.myLoads(user, tab, 100, skip)) as { items: Load[] };
        for (const l of page.items) {
          if (seen.has(l.id)) continue;
          seen.add(l.id);
          const first = l.stops[0];
          const last = l.stops[l.stops.length - 1];
          const city = (s: (typeof l.stops)[number] | undefined) => (s ? (lang === 'ar' ? s.cityNameAr : s.cityNameEn) : '');
          rows.push([
            l.referenceId,
            l.status,
            l.loadType,
            l.equipmentType,
            city(first),
            city(last),
            l.pickupAt,
            l.dropAt,
            l.priceSar,
            String(l.distanceKm),
            l.ratePerKmSar,
            String(l.totalWeightKg),
            l.comments ?? '',
          ]);
        }
        if (page.items.length < 100) break;
      }
    }
    return writeCsv(heads, rows);
  }
  return svc;
}

/** Every cityId inside a structured value (arrays of {cityId, …}). */
function collectCityIds(v: unknown): number[] {
  if (Array.isArray(v)) return v.flatMap(collectCityIds);
  if (v && typeof v === 'object' && 'cityId' in v) return [Number((v as { cityId: unknown }).cityId)];
  return [];
}
