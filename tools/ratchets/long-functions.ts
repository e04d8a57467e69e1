/**
 * Ratchet on long functions (issue 51): ESLint's `max-lines-per-function` (blank and comment
 * lines not counted, IIFEs included) at MAX_LINES over the source of apps/ and packages/, against
 * a committed baseline (tools/ratchets/long-functions.json) of the functions that are longer today.
 * The baseline only shrinks: a new long function, or a listed one that grew, fails; a listed one
 * that is gone or shorter fails too, asking for `npm run ratchets:update`, so the list stays tight.
 * No function may pass HARD_MAX_LINES unless the baseline lists it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { ESLint, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';

export const MAX_LINES = 80;
export const HARD_MAX_LINES = 150;

/** What is measured (relative to the repository root): the apps' and packages' source, not tests, fixtures or generated files. */
export const SOURCES = ['apps', 'packages'];
export const IGNORES = [
  '**/node_modules/**',
  '**/dist/**',
  '**/fixtures/**',
  '**/*.test.ts',
  '**/*.test.tsx',
  '**/*.d.ts',
  'apps/server/test/**',
  'apps/web/src/test/**',
  'packages/api-client/src/schema.ts',
];

/** One function longer than the limit; `name` is its qualified name in the file (see functionName), `lines` its counted lines. */
export interface LongFunction {
  file: string;
  name: string;
  lines: number;
}

export interface LongFunctionsBaseline {
  comment?: string;
  functions: LongFunction[];
}

type Node = Rule.Node;

/** The node max-lines-per-function reports on: a method's or accessor's definition, else the function itself. */
function reportedNode(fn: Node): Node {
  const p = fn.parent;
  if (p && 'value' in p && p.value === fn) {
    if (p.type === 'MethodDefinition') return p;
    if (p.type === 'Property' && (p.method || p.kind === 'get' || p.kind === 'set')) return p;
  }
  return fn;
}

const squash = (s: string, max = 60) => {
  const one = s.replace(/\s+/g, ' ');
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

/**
 * A name for a function that survives edits elsewhere in its file: the names of what encloses it,
 * outermost first, joined by ' > ': functions and classes by their name, variables, properties and
 * methods by theirs, and a callback by the call it is passed to (`app.get('/api/v1/loads')`,
 * `useMemo()`); an IIFE is `(iife)`. E.g. `createFleetService > addVehicle`, `LoadForm`,
 * `loadRoutes > app.post('/api/v1/loads')`. No line numbers; two functions of one file with the
 * same name get `#2`, `#3` in source order (see measureLongFunctions).
 */
export function functionName(fn: Node, source: { getText(node: Node): string }): string {
  const segments: string[] = [];
  let child: Node = fn;
  for (let n: Node | null = fn; n; child = n, n = n.parent) {
    const named = (n as { id?: { type: string; name?: string } | null }).id;
    switch (n.type) {
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
      case 'ClassDeclaration':
      case 'ClassExpression':
        if (named?.type === 'Identifier' && named.name) segments.push(named.name);
        break;
      case 'VariableDeclarator':
        if (n.id.type === 'Identifier') segments.push(n.id.name);
        break;
      case 'Property':
      case 'MethodDefinition':
      case 'PropertyDefinition':
        if (child === n.value) segments.push(n.computed ? `[${squash(source.getText(n.key as Node))}]` : keyName(n.key as Node));
        break;
      case 'AssignmentExpression':
        if (child === n.right) segments.push(squash(source.getText(n.left as Node)));
        break;
      case 'CallExpression':
        if (n.callee === child) segments.push('(iife)');
        else if (n.arguments.includes(child as never)) {
          const first = n.arguments[0];
          const label =
            first && first !== child && first.type === 'Literal' && typeof first.value === 'string'
              ? `'${squash(first.value, 50)}'`
              : first && first !== child && first.type === 'TemplateLiteral' && first.expressions.length === 0
                ? `'${squash(first.quasis[0]?.value.cooked ?? '', 50)}'`
                : '';
          segments.push(`${squash(source.getText(n.callee as Node), 40)}(${label})`);
        }
        break;
      case 'ExportDefaultDeclaration':
        if (segments.length === 0) segments.push('default');
        break;
    }
  }
  // `const X = memo(function X() {…})` names X twice in a row
  const names = segments.reverse().filter((s, i, all) => s !== all[i - 1]);
  return names.length ? names.join(' > ') : '<anonymous>';
}

function keyName(key: Node): string {
  if (key.type === 'Identifier') return key.name;
  if (key.type === 'PrivateIdentifier') return `#${key.name}`;
  if (key.type === 'Literal') return String(key.value);
  return '<key>';
}

/** Reports every function whose raw span passes `max` lines with its qualified name (a superset of max-lines-per-function's reports, which are joined to these by position). */
const functionNameRule: Rule.RuleModule = {
  meta: { type: 'suggestion', schema: [{ type: 'object', properties: { max: { type: 'integer' } } }], messages: { name: '{{name}}' } },
  create(context) {
    const { max } = (context.options[0] ?? { max: MAX_LINES }) as { max: number };
    const visit = (fn: Node) => {
      if (fn.loc!.end.line - fn.loc!.start.line + 1 <= max) return;
      context.report({ node: reportedNode(fn), messageId: 'name', data: { name: functionName(fn, context.sourceCode) } });
    };
    return { FunctionDeclaration: visit, FunctionExpression: visit, ArrowFunctionExpression: visit };
  },
};

export interface MeasureOptions {
  /** Root the file names are relative to (the repository, or a fixture tree in tests). */
  cwd: string;
  /** Files or folders under cwd to lint (default SOURCES). */
  paths?: string[];
  ignores?: string[];
  max?: number;
}

/** Every function of the tree longer than `max` lines (ESLint max-lines-per-function), sorted by file and name. */
export async function measureLongFunctions({ cwd, paths = SOURCES, ignores = IGNORES, max = MAX_LINES }: MeasureOptions): Promise<LongFunction[]> {
  const eslint = new ESLint({
    cwd,
    overrideConfigFile: true,
    errorOnUnmatchedPattern: false,
    warnIgnored: false,
    overrideConfig: [
      { ignores },
      {
        files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],
        languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
        // the source's own eslint-disable comments name rules this run does not load, and must not hide a long function
        linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' },
        plugins: { ratchets: { rules: { 'function-name': functionNameRule } } },
        rules: {
          'max-lines-per-function': ['error', { max, skipBlankLines: true, skipComments: true, IIFEs: true }],
          'ratchets/function-name': ['error', { max }],
        },
      },
    ],
  });
  const results = await eslint.lintFiles(paths);
  const found: LongFunction[] = [];
  for (const r of results) {
    const fatal = r.messages.find((m) => m.fatal);
    if (fatal) throw new Error(`${r.filePath}:${fatal.line}: ${fatal.message}`);
    const names = new Map(r.messages.filter((m) => m.ruleId === 'ratchets/function-name').map((m) => [`${m.line}:${m.column}`, m.message]));
    const file = relative(cwd, r.filePath).split('\\').join('/');
    const seen = new Map<string, number>();
    const long = r.messages.filter((m) => m.ruleId === 'max-lines-per-function').sort((a, b) => a.line - b.line || a.column - b.column);
    for (const m of long) {
      const lines = Number(/has too many lines \((\d+)\)/.exec(m.message)?.[1]);
      const base = names.get(`${m.line}:${m.column}`) ?? '<anonymous>';
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      found.push({ file, name: n === 1 ? base : `${base} #${n}`, lines });
    }
  }
  return sortFunctions(found);
}

export const sortFunctions = (list: LongFunction[]) =>
  [...list].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

const key = (f: { file: string; name: string }) => `${f.file}\u0000${f.name}`;
const show = (f: LongFunction) => `${f.file}: ${f.name} (${f.lines} lines)`;

export interface LongFunctionsVerdict {
  /** New long functions, listed ones that grew, anything over the hard limit that the baseline does not list. */
  failures: string[];
  /** Listed functions that are gone, now within the limit, or shorter: the baseline must be updated (also a failure). */
  stale: string[];
}

/** Compares the measured long functions with the baseline (see the file's header). */
export function checkLongFunctions(
  current: LongFunction[],
  baseline: LongFunctionsBaseline,
  { max = MAX_LINES, hardMax = HARD_MAX_LINES }: { max?: number; hardMax?: number } = {},
): LongFunctionsVerdict {
  const listed = new Map(baseline.functions.map((f) => [key(f), f]));
  const measured = new Map(current.map((f) => [key(f), f]));
  const failures: string[] = [];
  const stale: string[] = [];
  for (const f of current) {
    const was = listed.get(key(f));
    if (!was && f.lines > hardMax) failures.push(`${show(f)}: over the hard limit of ${hardMax} lines, which only the baseline's functions may pass; split it`);
    else if (!was) failures.push(`${show(f)}: new function over ${max} lines; split it (the baseline only shrinks)`);
    else if (f.lines > was.lines) failures.push(`${show(f)}: grew from ${was.lines} lines; bring it back to ${was.lines} or fewer, better under ${max}`);
    else if (f.lines < was.lines) stale.push(`${show(f)}: shorter than the baseline's ${was.lines}`);
  }
  for (const f of baseline.functions) {
    if (!measured.has(key(f))) stale.push(`${f.file}: ${f.name}: no longer over ${max} lines (or renamed/removed); the baseline listed ${f.lines}`);
  }
  return { failures, stale };
}

/**
 * The baseline rewritten from the measurement. Without allowGrowth it only keeps or lowers what the
 * baseline has: a new entry or a longer one is refused (returned in `refused`, nothing to write).
 * allowGrowth (`npm run ratchets:update -- --allow-growth`) is for the merge of a refactor that
 * moves or renames long functions, never to let a new long function in.
 */
export function updateLongFunctions(
  current: LongFunction[],
  baseline: LongFunctionsBaseline,
  { allowGrowth = false, hardMax = HARD_MAX_LINES }: { allowGrowth?: boolean; hardMax?: number } = {},
): { next: LongFunctionsBaseline; refused: string[]; warnings: string[] } {
  const listed = new Map(baseline.functions.map((f) => [key(f), f]));
  const refused: string[] = [];
  const warnings: string[] = [];
  for (const f of current) {
    const was = listed.get(key(f));
    const growth = !was ? `${show(f)}: not in the baseline` : f.lines > was.lines ? `${show(f)}: longer than the baseline's ${was.lines}` : null;
    if (growth && allowGrowth)
      warnings.push(`${growth} (added: --allow-growth)${f.lines > hardMax && (!was || was.lines <= hardMax) ? `; over the hard limit of ${hardMax}` : ''}`);
    else if (growth) refused.push(growth);
  }
  return { next: { ...baseline, functions: sortFunctions(current) }, refused, warnings };
}

export const readLongFunctionsBaseline = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as LongFunctionsBaseline;
/** One function a line (as Prettier keeps it), so that a merge or a review sees one entry change. */
export function writeLongFunctionsBaseline(file: string, baseline: LongFunctionsBaseline) {
  const entry = (f: LongFunction) => `    { "file": ${JSON.stringify(f.file)}, "name": ${JSON.stringify(f.name)}, "lines": ${f.lines} }`;
  const functions = baseline.functions.length ? `[\n${sortFunctions(baseline.functions).map(entry).join(',\n')}\n  ]` : '[]';
  writeFileSync(file, `{\n  "comment": ${JSON.stringify(baseline.comment ?? '')},\n  "functions": ${functions}\n}\n`);
}
