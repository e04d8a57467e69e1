import { join } from 'node:path';
import type { Config } from '../../config.ts';
import { createLocalStorage, createMemoryStorage } from './local.ts';
import { createS3Storage } from './s3.ts';
import type { StorageGateway } from './storage.ts';

export type { StorageGateway } from './storage.ts';

const cache = new WeakMap<object, StorageGateway>();

/**
 * The storage gateway of a configuration: an S3-compatible bucket when S3_BUCKET is set (several
 * instances), else local disk under DATA_DIR/uploads, or memory when DATA_DIR is `memory://`
 * (tests). One instance per config object, so every module shares it.
 */
export function storageFor(
  config: Pick<
    Config,
    'DATA_DIR' | 'dataDir' | 'S3_BUCKET' | 'S3_REGION' | 'S3_ENDPOINT' | 'S3_FORCE_PATH_STYLE' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_PREFIX'
  >,
): StorageGateway {
  let s = cache.get(config);
  if (!s) {
    s = config.S3_BUCKET
      ? createS3Storage({
          bucket: config.S3_BUCKET,
          region: config.S3_REGION,
          endpoint: config.S3_ENDPOINT,
          forcePathStyle: config.S3_FORCE_PATH_STYLE,
          accessKeyId: config.S3_ACCESS_KEY_ID,
          secretAccessKey: config.S3_SECRET_ACCESS_KEY,
          prefix: config.S3_PREFIX,
        })
      : config.DATA_DIR === 'memory://'
        ? createMemoryStorage()
        : createLocalStorage(join(config.dataDir, 'uploads'));
    cache.set(config, s);
  }
  return s;
}
