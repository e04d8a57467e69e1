import {
  type DigitSystem,
  CSV_COLUMNS,
  ERRORS,
  errorMessage,
  isValidationKey,
  loadPriceOf,
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
import type { Db, DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { FleetService } from '../fleet/fleet.service.ts';
import type { LoadsService } from '../loads/loads.service.ts';
import type { VendorsService } from '../vendors/vendors.service.ts';
import type { cityNamesByIds } from '../reference/reference.service.ts';
import { mapHeaders, parseCsv, rowCells, toCell, validateRow, writeCsv, type RowError } from './csv.convert.ts';
import * as repo from './csv.repository.ts';

/** Thrown when an import stops at a window boundary because its worker is stopping. */
export class ImportInterrupted extends Error {
  constructor() {
    super('csv import interrupted; it resumes from its cursor');
  }
}

/** Thrown inside a window when another worker of the same import already moved its cursor. */
class ImportTakenOver extends Error {}

/** Valid rows are inserted this many per transaction (a failing chunk is retried row by row). */
export const CSV_CHUNK = 500;
export const CSV_MAX_ROWS = 100_000;

/** Localize a stored row error at read time (v.* key, error code, or zod's text). */
export function localizeRowError(e: RowError, lang: Language, digits?: DigitSystem) {
  const message = isValidationKey(e.code)
    ? localizeValidationMessage(e.code, lang, digits)
    : e.code in ERRORS
      ? errorMessage(e.code as ErrorCode, lang, digits)
      : e.code;
  return { path: e.path, code: e.code, message };
}

const toLog = (r: repo.CsvLogRow, lang: Language, digits?: DigitSystem): CsvLog => ({
  id: r.id,
  type: r.type,
  fileName: r.fileName,
  status: r.status,
  total: r.total,
  processing: r.status === 'processing' ? Math.max(0, r.total - r.succeeded - r.failed) : 0,
  succeeded: r.succeeded,
  failed: r.failed,
  error: r.error ? (r.error in ERRORS ? errorMessage(r.error as ErrorCode, lang, digits) : r.error) : null,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

interface Deps {
  db: Db;
  fleet: FleetService;
  vendors: VendorsService;
  loads: LoadsService;
  /** City names by id in a language (modules/reference): the export's origin and destination columns. */
  cityNames: typeof cityNamesByIds;
  log?: { error: (obj: unknown, msg: string) => void; info: (obj: unknown, msg: string) => void };
  /** The import's owner as the auth plugin would load it (the job runs without a request). */
  currentUser(id: string): Promise<CurrentUser | null>;
  /** Queue the durable import job of a log (once per log). */
  enqueue(logId: string): Promise<void>;
}

/**
 * Bulk CSV import / export (spec §2, §3 CSV upload log, §4, §5; issue 3). Rows are validated with
 * the form schemas (csv.convert.ts); a row is all or nothing; good rows are never lost because of
 * bad ones.
 */
export function createCsvService(deps: Deps) {
  const { db } = deps;

  /** Insert validated rows of one type, all or nothing (a savepoint of `tx` when given). */
  async function insert(user: CurrentUser, type: CsvImportType, values: unknown[], tx?: DbOrTx) {
    if (type === 'vendors') await deps.vendors.bulkInsert(user, values as never, tx);
    else if (type === 'shipments') {
      const one = async (t: DbOrTx) => {
        const ids: string[] = [];
        for (const v of values) ids.push((await deps.loads.create(user, v as z.output<typeof createLoadBody>, t)).id);
        // create() inside an outer transaction leaves the board bump to its caller (issue 24: an
        // import's posted loads were missing from cached search pages until the TTL ran out)
        await deps.loads.boardChanged(t, ids);
      };
      if (tx) await tx.transaction(one);
      else await db.transaction(one);
    } else await deps.fleet.bulkInsert(user, type, values, tx);
  }
  const errorOf = (e: unknown): RowError => ({ path: '', code: e instanceof AppError ? e.code : 'SOMETHING_WENT_WRONG' });

  /**
   * One window of the import, committed as a whole (issue 6: an import resumes from its last
   * committed chunk): bad rows stored with their errors, good rows inserted together — or row by
   * row when the chunk fails —, counts bumped and the cursor moved, in one transaction. A crash
   * before the commit leaves the window to be done again, never half-done.
   */
  async function importWindow(
    user: CurrentUser,
    type: CsvImportType,
    logId: string,
    start: number,
    rows: Record<string, unknown>[],
    byHeader: ReturnType<typeof mapHeaders>['byHeader'],
  ) {
    const good: { rowNumber: number; cells: Record<string, string>; value: unknown }[] = [];
    const failed: { rowNumber: number; cells: Record<string, string>; errors: RowError[] }[] = [];
    rows.forEach((raw, j) => {
      const cells = rowCells(raw, byHeader);
      const r = validateRow(type, cells);
      if (r.ok) good.push({ rowNumber: start + j + 1, cells, value: r.value });
      else failed.push({ rowNumber: start + j + 1, cells, errors: r.errors });
    });
    await db.transaction(async (tx) => {
      // another worker of this import got here first: leave the window to it
      if ((await repo.lockImportCursor(tx, logId)) !== start) throw new ImportTakenOver();
      let ok = 0;
      if (good.length) {
        try {
          await insert(
            user,
            type,
            good.map((g) => g.value),
            tx,
          );
          ok = good.length;
        } catch (e) {
          if (good.length === 1) failed.push({ ...good[0], errors: [errorOf(e)] });
          else
            for (const g of good) {
              try {
                await insert(user, type, [g.value], tx);
                ok += 1;
              } catch (e2) {
                failed.push({ ...g, errors: [errorOf(e2)] });
              }
            }
        }
      }
      if (failed.length)
        await repo.insertFailedRows(
          tx,
          failed.map((f) => ({ id: newId(), logId, rowNumber: f.rowNumber, data: f.cells, errors: f.errors })),
        );
      await repo.advanceImport(tx, logId, start + rows.length, ok, failed.length);
    });
  }

  /**
   * The durable import job (jobs/definitions.ts 'csv.import'): from the log's committed cursor to
   * the end, window by window, yielding between windows so a 100,000-row import never blocks the
   * API. Runs again from the cursor after a crash (pg-boss retries a job whose worker died).
   */
  async function processImport(logId: string, signal?: AbortSignal) {
    const log = await repo.getLogById(db, logId);
    if (!log || log.status !== 'processing') return;
    try {
      const user = await deps.currentUser(log.ownerId);
      if (!user) return await repo.updateLog(db, logId, { status: 'failed', error: 'UNAUTHORIZED', source: null });
      const { headers, rows } = parseCsv(log.source ?? '');
      const { byHeader, missing } = mapHeaders(log.type, headers);
      if (rows.length === 0) return await repo.updateLog(db, logId, { status: 'failed', error: 'CSV_EMPTY', source: null });
      if (missing.length) return await repo.updateLog(db, logId, { status: 'failed', error: 'CSV_BAD_HEADERS', total: rows.length, source: null });
      if (rows.length > CSV_MAX_ROWS)
        return await repo.updateLog(db, logId, { status: 'failed', error: 'CSV_TOO_MANY_ROWS', total: rows.length, source: null });
      if (log.total !== rows.length) await repo.updateLog(db, logId, { total: rows.length });
      deps.log?.info({ logId, fromRow: log.nextRow, total: rows.length }, log.nextRow > 0 ? 'csv import resumed' : 'csv import started');
      for (let start = log.nextRow; start < rows.length; start += CSV_CHUNK) {
        // shutting down: stop at a window boundary; the job is retried (here or on another instance)
        if (signal?.aborted) throw new ImportInterrupted();
        await importWindow(user, log.type, logId, start, rows.slice(start, start + CSV_CHUNK), byHeader);
        await new Promise((r) => setImmediate(r));
      }
      // the file is no longer needed once every row is stored
      await repo.updateLog(db, logId, { status: 'completed', source: null });
      deps.log?.info({ logId, total: rows.length }, 'csv import completed');
    } catch (e) {
      if (e instanceof ImportInterrupted) throw e;
      if (e instanceof ImportTakenOver) return;
      deps.log?.error({ err: e, logId }, 'csv import failed');
      await repo.updateLog(db, logId, { status: 'failed', error: 'SOMETHING_WENT_WRONG', source: null }).catch(() => undefined);
    }
  }

  const svc = {
    processImport,
    /** Imports still processing (a sweep re-queues them in case their job was never sent). */
    processingLogIds: () => repo.processingLogIds(db),
    /** Create the log with its file and queue the durable job; answers at once (202). */
    async startImport(user: CurrentUser, type: CsvImportType, fileName: string | null, text: string) {
      // the log id comes out of the transaction: a same-key retry after a crash replays it (issue 22)
      // and queues the log's job again (one job per log: pg-boss singletonKey; the sweep also finds it)
      const id = await db.transaction(async (tx) => {
        const id = newId();
        await repo.insertLog(tx, { id, ownerId: user.id, type, fileName, status: 'processing', source: text });
        return id;
      });
      await deps.enqueue(id);
      return { id, status: 'processing' as const };
    },
    async listLogs(user: CurrentUser, limit: number, skip: number, lang: Language, digits?: DigitSystem) {
      const { items, total } = await repo.listLogs(db, user.id, limit, skip);
      return { items: items.map((r) => toLog(r, lang, digits)), total };
    },
    async getLog(user: CurrentUser, id: string, limit: number, skip: number, lang: Language, digits?: DigitSystem) {
      const log = await repo.getLog(db, user.id, id);
      if (!log) throw new AppError('NOT_FOUND');
      const rows = await repo.failedRows(db, id, limit, skip);
      return {
        ...toLog(log, lang, digits),
        rowsTotal: rows.total,
        rows: rows.items.map((r) => ({ id: r.id, rowNumber: r.rowNumber, data: r.data, errors: r.errors.map((e) => localizeRowError(e, lang, digits)) })),
      };
    },
    /**
     * The fix flow: resubmit edited failed rows (cells by field key). Each row is validated and
     * inserted on its own; passing rows leave the failed list and move to succeeded.
     */
    async retry(user: CurrentUser, id: string, rows: { rowId: string; data: Record<string, string> }[], lang: Language, digits?: DigitSystem) {
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
      return svc.getLog(user, id, 500, 0, lang, digits);
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
      const names = await deps.cityNames(db, cityIds, lang);
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
            'السعر المعلن (ريال)',
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
            'Posted price (SAR)',
            'Distance (km)',
            'Rate per km',
            'Weight (kg)',
            'Comments',
          ];
    const seen = new Set<string>();
    const rows: string[][] = [];
    for (const tab of ['posted', 'unposted', 'active', 'finished'] as const) {
      // keyset pages: each reads only its 100 rows, however many the user has (issue 10)
      for (let cursor: string | undefined; ;) {
        const page = (await deps.loads.myLoads(user, tab, 100, 0, cursor)) as { items: Load[]; nextCursor: string | null };
        for (const l of page.items) {
          if (seen.has(l.id)) continue;
          seen.add(l.id);
          const first = l.stops[0];
          const last = l.stops[l.stops.length - 1];
          const city = (s: (typeof l.stops)[number] | undefined) => (s ? (lang === 'ar' ? s.cityNameAr : s.cityNameEn) : '');
          // Price: the agreed (booked) price once booked, e.g. after a counter offer; the posted one beside it (issue 22)
          const price = loadPriceOf(l);
          rows.push([
            l.referenceId,
            l.status,
            l.loadType,
            l.equipmentType,
            city(first),
            city(last),
            l.pickupAt,
            l.dropAt,
            price.priceSar,
            price.postedPriceSar,
            String(l.distanceKm),
            price.ratePerKmSar,
            String(l.totalWeightKg),
            l.comments ?? '',
          ]);
        }
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
    }
    return writeCsv(heads, rows);
  }
  return svc;
}

/** Every cityId inside a structured value (arrays of {cityId, …}). */
function collectCityIds(v: unknown): number[] {
  if (Array.isArray(v)) return v.flatMap(collectCityIds);
  if (v && typeof v === 'object' && 'cityId' in v) return [Number(v.cityId)];
  return [];
}

export type CsvService = ReturnType<typeof createCsvService>;
