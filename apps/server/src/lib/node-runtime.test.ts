import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeRuntimeRefusal } from './node-runtime.ts';

const REPO_ROOT = resolve(import.meta.dirname, '../../../..');
/** The machine's own Node (20 on the CI machines, docs/runtime.md); the project runs on node_modules/.bin/node. */
const SYSTEM_NODE = '/usr/bin/node';
const systemNodeMajor = existsSync(SYSTEM_NODE)
  ? Number(spawnSync(SYSTEM_NODE, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout.trim())
  : NaN;

describe('the Node.js version check of the entry points (issue 48)', () => {
  it('refuses Node < 24 with one line naming the project runtime, accepts 24 and later', () => {
    for (const old of ['v20.20.2', 'v22.12.0', 'v23.11.1', '18.0.0', 'garbage', '']) {
      const refusal = nodeRuntimeRefusal(old);
      expect(refusal, old).toContain('Node.js 24');
      expect(refusal).toContain('npm start');
      expect(refusal).toContain('npx node');
      expect(refusal).not.toContain('\n');
    }
    for (const ok of ['v24.0.0', 'v24.21.0', '24.11.1', 'v25.2.0', 'v30.0.0']) expect(nodeRuntimeRefusal(ok), ok).toBeNull();
  });

  it.runIf(systemNodeMajor < 24)('main.ts under the machine Node prints the one line and exits 1 before opening a database', () => {
    const dataDir = join(REPO_ROOT, 'node_modules/.cache/node-runtime-test-never-created');
    for (const entry of ['apps/server/src/main.ts', 'apps/server/src/cli/admin.ts']) {
      const run = spawnSync(SYSTEM_NODE, ['--import', 'tsx', entry, 'pending'], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, DATA_DIR: dataDir, NODE_ENV: 'test' },
        timeout: 60_000,
      });
      expect(run.status, entry).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`this is Node.js v${systemNodeMajor}.`);
      expect(lines[0]).toContain('npm start');
      expect(lines[0]).toContain('npx node');
      expect(run.stdout).toBe('');
      expect(existsSync(dataDir)).toBe(false);
    }
  });
});
