/**
 * The per-route size budget (issue 51's third ratchet; issue 9's budget): tools/bundle/budget.json
 * gives, for each route of routes.ts and each language, the most initial JS (size.ts's initialJs:
 * entry, page module, their static imports and the language bundle) in KB, gzip and brotli.
 * A route over either fails; a route more than LOWER_MARGIN under its budget gets a line saying
 * the budget can be lowered (not a failure: builds vary a little), which `npm run ratchets:update`
 * does when a build is there. Budgets are never raised by a tool: a larger route is a decision,
 * written by hand in budget.json with the reason in the commit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { initialJs, type Manifest, sizeOf } from './size.ts';

export const LANGS = ['en', 'ar'] as const;
export type Lang = (typeof LANGS)[number];
export const KB = 1024;
/** Under the budget by more than this share: the budget can be lowered. */
export const LOWER_MARGIN = 0.05;
/** Headroom a lowered budget keeps over the measured size. */
export const HEADROOM = 0.02;
/** Issue 9's ceilings (brotli), which budget.json may only stay under. */
export const CEILINGS_BROTLI_KB: Record<string, number> = { home: 200, 'load search': 250 };

export interface SizeBudget {
  gzipKB: number;
  brotliKB: number;
}
export interface BudgetFile {
  comment?: string;
  routes: Record<string, Partial<Record<Lang, SizeBudget>>>;
}

export interface RouteMeasure {
  route: string;
  lang: Lang;
  files: string[];
  gzipKB: number;
  brotliKB: number;
  budget?: SizeBudget;
}

export interface BudgetVerdict {
  rows: RouteMeasure[];
  /** A route over its gzip or brotli budget, or a route of `routes` without a budget. */
  failures: string[];
  /** Routes more than LOWER_MARGIN under a budget: informational. */
  lowerable: string[];
}

const kb = (n: number) => n.toFixed(1);

/** Measures every route of `routes` (name → page module key of the manifest) in both languages and compares with `budget`. */
export function checkBudget(dist: string, manifest: Manifest, routes: Record<string, string>, budget: BudgetFile): BudgetVerdict {
  const rows: RouteMeasure[] = [];
  const failures: string[] = [];
  const lowerable: string[] = [];
  for (const [route, src] of Object.entries(routes)) {
    for (const lang of LANGS) {
      const files = initialJs(manifest, src, lang);
      const s = sizeOf(dist, files);
      const row: RouteMeasure = { route, lang, files, gzipKB: s.gzip / KB, brotliKB: s.brotli / KB, budget: budget.routes[route]?.[lang] };
      rows.push(row);
      const b = row.budget;
      if (!b) {
        failures.push(`${route} (${lang}): no budget in budget.json (measured ${kb(row.gzipKB)} KB gzip, ${kb(row.brotliKB)} KB brotli)`);
        continue;
      }
      for (const k of ['gzipKB', 'brotliKB'] as const) {
        const what = k === 'gzipKB' ? 'gzip' : 'brotli';
        if (row[k] > b[k]) failures.push(`${route} (${lang}): ${kb(row[k])} KB ${what}, over its budget of ${b[k]} KB`);
        else if (row[k] < b[k] * (1 - LOWER_MARGIN))
          lowerable.push(
            `${route} (${lang}): ${kb(row[k])} KB ${what}, ${Math.round((1 - row[k] / b[k]) * 100)}% under its budget of ${b[k]} KB: the budget can be lowered (npm run ratchets:update)`,
          );
      }
    }
  }
  return { rows, failures, lowerable };
}

/** Budgets lowered (never raised) to the measured size plus HEADROOM, where a route is more than LOWER_MARGIN under; the changes made. */
export function lowerBudget(rows: RouteMeasure[], budget: BudgetFile): { next: BudgetFile; changes: string[] } {
  const next: BudgetFile = structuredClone(budget);
  const changes: string[] = [];
  for (const r of rows) {
    const b = next.routes[r.route]?.[r.lang];
    if (!b) continue;
    for (const k of ['gzipKB', 'brotliKB'] as const) {
      if (r[k] >= b[k] * (1 - LOWER_MARGIN)) continue;
      const lowered = Math.ceil(r[k] * (1 + HEADROOM) * 10) / 10;
      changes.push(`${r.route} (${r.lang}) ${k}: ${b[k]} → ${lowered}`);
      b[k] = lowered;
    }
  }
  return { next, changes };
}

export const readBudget = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as BudgetFile;
/** One route a line (as Prettier keeps it). */
export function writeBudget(file: string, b: BudgetFile) {
  const lang = (v: SizeBudget | undefined) => (v ? `{ "gzipKB": ${v.gzipKB}, "brotliKB": ${v.brotliKB} }` : 'null');
  const route = ([name, langs]: [string, BudgetFile['routes'][string]]) =>
    `    ${JSON.stringify(name)}: { ${LANGS.filter((l) => langs[l])
      .map((l) => `"${l}": ${lang(langs[l])}`)
      .join(', ')} }`;
  writeFileSync(file, `{\n  "comment": ${JSON.stringify(b.comment ?? '')},\n  "routes": {\n${Object.entries(b.routes).map(route).join(',\n')}\n  }\n}\n`);
}
