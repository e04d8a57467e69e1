import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Static scans of the server's source for the boundaries of docs/architecture.md that hold by
 * construction (issue 18): which code writes `loads.status` / `offers.status`, and which module's
 * repository writes which table. Pure text: SQL in template strings and drizzle calls.
 */

export interface Source {
  /** Path relative to the repository root, with forward slashes. */
  path: string;
  /** The text with comments blanked (line numbers kept). */
  text: string;
}

/** Blank out // and /* *\/ comments, keeping newlines so that line numbers stay right. */
export function stripComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/[^\n]*/g, (m, pre: string) => pre + ' '.repeat(m.length - pre.length));
}

/** Every non-test .ts file under `dir` (tests and testkits excluded). */
export function sources(root: string, dir: string): Source[] {
  const out: Source[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.testkit.ts')) {
        out.push({ path: relative(root, p).split('\\').join('/'), text: stripComments(readFileSync(p, 'utf8')) });
      }
    }
  };
  walk(join(root, dir));
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The argument text of the call whose `(` is at `open` (balanced parentheses). */
function callArgs(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1);
}

export interface Hit {
  path: string;
  line: number;
  what: string;
}

/** The tables whose status only their module's lifecycle.repository.ts writes (issue 18, issue 51). */
export type LifecycleTable = 'loads' | 'offers' | 'trucks' | 'tenders' | 'tender_invites' | 'calls' | 'bayan_trips' | 'subscriptions' | 'escrows';

/**
 * Statements that write the `status` column of `table`: SQL `update <table> [alias] set … status =`
 * (in the set list, before `where`) and drizzle `.update(<schema export>).set({ … status … })`,
 * the export named as the schema names tables (`bayan_trips` → `bayanTrips`).
 */
export function statusWriters(files: Source[], table: LifecycleTable): Hit[] {
  const hits: Hit[] = [];
  const sqlRe = new RegExp(`\\bupdate\\s+${table}\\b(?:\\s+(?!set\\b)\\w+)?\\s+set\\b([\\s\\S]*?)(?:\\bwhere\\b|\\bfrom\\b|\\breturning\\b|\`|;)`, 'gi');
  const exportName = table.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
  const drizzleRe = new RegExp(`\\.update\\(\\s*${exportName}\\s*\\)\\s*\\.set\\(`, 'g');
  for (const f of files) {
    for (const m of f.text.matchAll(sqlRe)) {
      const set = m[1];
      // a set list built from fragments (`set ${sql.join(parts)}`) writes status when a fragment of the file does
      const dynamic = /^\s*\$\{/.test(set) && /sql`\s*status\s*=/.test(f.text);
      if (/(^|[\s,(])status\s*=/i.test(set) || dynamic) hits.push({ path: f.path, line: lineOf(f.text, m.index), what: `update ${table} set status` });
    }
    for (const m of f.text.matchAll(drizzleRe)) {
      const args = callArgs(f.text, m.index + m[0].length - 1);
      if (/\bstatus\b/.test(args)) hits.push({ path: f.path, line: lineOf(f.text, m.index), what: `.update(${exportName}).set({ status })` });
    }
  }
  return hits;
}

export interface TableWrite {
  path: string;
  line: number;
  table: string;
  kind: 'insert' | 'update' | 'delete';
}

/**
 * The tables a file writes: SQL `insert into t`, `update t`, `delete from t` (t a known table) and
 * drizzle `.insert(x)` / `.update(x)` / `.delete(x)` with `x` a schema export (`tables` maps the
 * export's name to its table).
 */
export function tableWrites(f: Source, tables: Map<string, string>): TableWrite[] {
  const known = new Set(tables.values());
  const out: TableWrite[] = [];
  for (const m of f.text.matchAll(/\b(insert\s+into|update|delete\s+from)\s+([a-z_][a-z0-9_]*)/gi)) {
    const table = m[2].toLowerCase();
    if (!known.has(table)) continue;
    const kind = m[1].toLowerCase().startsWith('insert') ? 'insert' : m[1].toLowerCase().startsWith('update') ? 'update' : 'delete';
    out.push({ path: f.path, line: lineOf(f.text, m.index), table, kind });
  }
  for (const m of f.text.matchAll(/\.(insert|update|delete)\(\s*([A-Za-z_]\w*)\s*\)/g)) {
    const table = tables.get(m[2]);
    if (table) out.push({ path: f.path, line: lineOf(f.text, m.index), table, kind: m[1] as TableWrite['kind'] });
  }
  return out;
}
