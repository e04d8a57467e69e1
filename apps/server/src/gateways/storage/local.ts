import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { StorageGateway } from './storage.ts';

/** Local-disk storage under `root` (DATA_DIR/uploads). Keys may contain `/`; `..` is refused. */
export function createLocalStorage(root: string): StorageGateway {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const p = resolve(join(base, key));
    if (!p.startsWith(base + sep)) throw new Error('bad storage key');
    return p;
  };
  return {
    kind: 'local',
    async put(key, data) {
      const p = pathOf(key);
      await mkdir(dirname(p), { recursive: true });
      await writeFile(p, data, { mode: 0o600 });
    },
    async get(key) {
      const p = pathOf(key);
      await stat(p);
      return createReadStream(p);
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

/** In-memory storage: tests and DATA_DIR=memory:// (nothing survives a restart). */
export function createMemoryStorage(): StorageGateway {
  const objects = new Map<string, Buffer>();
  return {
    kind: 'memory',
    async put(key, data) {
      objects.set(key, Buffer.from(data));
    },
    async get(key) {
      const b = objects.get(key);
      if (!b) throw new Error('not found');
      return Readable.from([b]);
    },
    async delete(key) {
      objects.delete(key);
    },
  };
}
