import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { masar, unwrap } from '../../../lib/api';

/** One CSV import (spec §3 "CSV upload log"). Counts are rows. */
export interface CsvLog {
  id: string;
  type: string;
  fileName?: string | null;
  status: string;
  createdAt: string;
  updatedAt?: string;
  total?: number;
  processing: number;
  succeeded: number;
  failed: number;
}

export interface CsvRowError {
  path: string;
  message: string;
}

/** A failed row: its original cells (by column) and its per-field errors. */
export interface CsvFailedRow {
  id: string;
  rowNumber: number;
  data: Record<string, string>;
  errors: CsvRowError[];
  status?: string;
}

export interface CsvLogDetail extends CsvLog {
  rows: CsvFailedRow[];
  rowsTotal?: number;
  error?: string | null;
}

const isActive = (l: Pick<CsvLog, 'status' | 'processing'>) => l.status === 'processing' || l.processing > 0;

/** Normalise the detail answer: rows may come as `rows` or `failedRows`, the log inline or under `log`. */
function toDetail(d: Record<string, unknown>): CsvLogDetail {
  const log = (d.log ?? d) as CsvLog;
  const rows = (d.rows ?? d.failedRows ?? (d.log as Record<string, unknown> | undefined)?.rows ?? []) as Array<Record<string, unknown>>;
  return {
    ...log,
    rowsTotal: (d.rowsTotal as number | undefined) ?? rows.length,
    rows: rows.map((r) => ({
      id: String((r.id ?? r.rowId) as string),
      rowNumber: Number(r.rowNumber ?? r.row ?? r.line ?? 0),
      data: Object.fromEntries(Object.entries((r.data ?? {}) as Record<string, unknown>).map(([k, v]) => [k, v == null ? '' : String(v as string | number)])),
      errors: (r.errors ?? []) as CsvRowError[],
      status: r.status as string | undefined,
    })),
  };
}

export function useCsvLogs(page: number, pageSize = 20) {
  return useQuery({
    queryKey: ['csv', 'logs', page, pageSize],
    queryFn: () => unwrap(masar.GET('/api/v1/csv/logs', { params: { query: { limit: pageSize, skip: (page - 1) * pageSize } } })),
    // Auto-refresh while an import is still running.
    refetchInterval: (q) => (q.state.data?.items.some(isActive) ? 1500 : false),
  });
}

export function useCsvLog(id: string | null) {
  return useQuery({
    queryKey: ['csv', 'log', id],
    queryFn: () => unwrap(masar.GET('/api/v1/csv/logs/{id}', { params: { path: { id: id! }, query: { limit: 500 } } })).then(toDetail),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data && isActive(q.state.data) ? 1500 : false),
  });
}

export interface RetryResult {
  /** Resubmitted rows that now passed. */
  succeeded: number;
  /** Resubmitted rows that still fail. */
  failed: number;
  log: CsvLogDetail;
}

/** POST /csv/logs/:id/retry — the answer is the updated log with the rows that still fail. */
export function useRetryRows(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (rows: { rowId: string; data: Record<string, string> }[]): Promise<RetryResult> => {
      const log = toDetail(await unwrap(masar.POST('/api/v1/csv/logs/{id}/retry', { params: { path: { id } }, body: { rows } })));
      const still = new Set(log.rows.map((r) => r.id));
      const failed = rows.filter((r) => still.has(r.rowId)).length;
      return { succeeded: rows.length - failed, failed, log };
    },
    onSuccess: (res) => qc.setQueryData(['csv', 'log', id], res.log),
    onSettled: () => qc.invalidateQueries({ queryKey: ['csv'] }),
  });
}
