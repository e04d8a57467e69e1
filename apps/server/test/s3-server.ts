import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The S3_* environment for a server using this store. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A local S3-protocol server for tests (s3rver: real HTTP and S3 XML, access keys checked — it does not
 * verify SigV4 signatures —, objects on disk in a temporary directory); no object store runs on this machine.
 */
export async function startS3Server(bucket = 'masar-test'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'masar-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const addr = await server.run();
  const endpoint = `http://127.0.0.1:${addr.port}`;
  // s3rver's fixed credentials
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: '1',
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
    },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
