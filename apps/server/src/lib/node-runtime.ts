/**
 * The Node.js the server and its command-line tools need (issue 48, docs/runtime.md): Node 24 or
 * later, the runtime the project carries as the npm package `node` (node_modules/.bin/node).
 *
 * This file imports nothing, so an entry point can import it first and refuse an older Node
 * before the rest of the server is loaded. A bare `node …` in a shell is the machine's own Node
 * (20 on the CI machines), which started the server without a word before issue 48.
 */

/** Oldest Node.js major the project runs on (package.json `engines`, docs/runtime.md). */
export const MIN_NODE_MAJOR = 24;

/**
 * Why a Node.js version cannot run Masar, as one line for stderr, or null when it can.
 *
 * @param version `process.version` form (`v20.20.2`) or bare (`24.21.0`); an unreadable string is refused.
 * @returns null for major ≥ 24; otherwise one line naming the project's own runtime (`npm start`, `npx node`).
 */
export function nodeRuntimeRefusal(version: string): string | null {
  const major = Number(/^v?(\d+)\./.exec(version.trim())?.[1]);
  if (Number.isInteger(major) && major >= MIN_NODE_MAJOR) return null;
  return (
    `Masar needs Node.js ${MIN_NODE_MAJOR} or later, this is Node.js ${version}: ` +
    'start it with `npm start` (or `npm run serve`), or run a file with `npx node --import tsx <file>` ' +
    '(the project carries Node 24 in node_modules/.bin/node, docs/runtime.md).'
  );
}

/**
 * Refuse to go on under an older Node: writes the one-line reason to stderr and exits with code 1.
 * Call it before importing anything heavy (entry points: main.ts, cli/*.ts).
 */
export function exitUnlessSupportedNode(version: string = process.version): void {
  const refusal = nodeRuntimeRefusal(version);
  if (refusal === null) return;
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}
