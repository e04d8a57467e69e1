import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { StorageGateway } from './storage.ts';

export interface S3StorageOptions {
  bucket: string;
  /** Region of the bucket (AWS), or any value an S3-compatible store accepts. */
  region: string;
  /** Endpoint of an S3-compatible store (MinIO, Ceph, a Saudi cloud's object storage); AWS when unset. */
  endpoint?: string;
  /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible stores need. */
  forcePathStyle?: boolean;
  /** Static credentials; the SDK's default chain (environment, instance role) when unset. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Prefix for every key, e.g. `masar/` to share a bucket. */
  prefix?: string;
}

/**
 * Storage on an S3-compatible object store (@aws-sdk/client-s3), for several instances that
 * must see the same files (issue 6, configuration S3_*). Objects are private (no ACL is set) and
 * served through the API, which checks ownership first. Checksums are sent only when an
 * operation requires them, which S3-compatible stores without the newer checksum headers accept.
 */
export function createS3Storage(o: S3StorageOptions): StorageGateway & { client: S3Client } {
  const client = new S3Client({
    region: o.region,
    endpoint: o.endpoint,
    forcePathStyle: o.forcePathStyle,
    credentials: o.accessKeyId && o.secretAccessKey ? { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey } : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Key = (key: string) => `${o.prefix ?? ''}${key}`;
  return {
    kind: 's3',
    client,
    async put(key, data) {
      await client.send(new PutObjectCommand({ Bucket: o.bucket, Key: Key(key), Body: data, ContentLength: data.length }));
    },
    async get(key) {
      const res = await client.send(new GetObjectCommand({ Bucket: o.bucket, Key: Key(key) }));
      if (!(res.Body instanceof Readable)) throw new Error('S3 returned no body');
      return res.Body;
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: o.bucket, Key: Key(key) }));
    },
  };
}
