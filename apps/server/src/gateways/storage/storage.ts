import type { Readable } from 'node:stream';

/**
 * File storage for uploaded documents (DESIGN §1: ./data/uploads by default, an S3-compatible
 * bucket when S3_BUCKET is set). Keys are opaque, server-chosen strings (never a client file name), e.g.
 * `2026/11/<uuid>`. Bytes are stored as given; callers check type and size first.
 */
export interface StorageGateway {
  readonly kind: 'local' | 'memory' | 's3';
  /** Store `data` under `key`, replacing any previous object. */
  put(key: string, data: Buffer): Promise<void>;
  /** A stream of the object's bytes; throws when it does not exist. */
  get(key: string): Promise<Readable>;
  delete(key: string): Promise<void>;
}
