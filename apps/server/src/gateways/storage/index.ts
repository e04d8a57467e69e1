import { join } from 'node:path';
import type { Config } from '../../config.ts';
import { createLocalStorage, createMemoryStorage } from './local.ts';
import type { StorageGateway } from './storage.ts';

export type { StorageGateway } from './storage.ts';

const cache = new WeakMap<object, StorageGateway>();

/**
 * The storage gateway of a configuration: local disk under DATA_DIR/uploads, or memory when
 * DATA_DIR is `memory://` (tests). One instance per config object, so the files and CSV
 * modules share it. An S3 adapter will be chosen here by S3_* variables.
 */
export function storageFor(config: Pick<Config, 'DATA_DIR' | 'dataDir'>): StorageGateway {
  let s = cache.get(config);
  if (!s) {
    s = config.DATA_DIR === 'memory://' ? createMemoryStorage() : createLocalStorage(join(config.dataDir, 'uploads'));
    cache.set(config, s);
  }
  return s;
}
