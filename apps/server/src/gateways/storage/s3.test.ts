import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE } from '@masar/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { createUser, multipart, PNG_1X1 } from '../../../test/fixtures.ts';
import { startS3Server, type TestS3 } from '../../../test/s3-server.ts';
import { createS3Storage } from './s3.ts';

// a 1×1 PNG: uploads are checked by their magic bytes
const PNG = PNG_1X1;

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3?.close());

describe('S3 storage adapter', () => {
  it('puts, gets and deletes objects over the S3 protocol, under its key prefix', async () => {
    const storage = createS3Storage({ ...s3, region: 'us-east-1', forcePathStyle: true, prefix: 'uploads/' });
    await storage.put('2026/11/a', Buffer.from('مرحبا bytes'));
    expect(await text(await storage.get('2026/11/a'))).toBe('مرحبا bytes');
    const listed = await storage.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'uploads/' }));
    expect(listed.Contents?.map((o) => o.Key)).toContain('uploads/2026/11/a');
    await storage.delete('2026/11/a');
    await expect(storage.get('2026/11/a')).rejects.toThrow();
  });

  it('surfaces the store refusing the credentials', async () => {
    const storage = createS3Storage({ ...s3, accessKeyId: 'UNKNOWN', region: 'us-east-1', forcePathStyle: true });
    await expect(storage.put('x', Buffer.from('x'))).rejects.toThrow(/Access Key Id/);
  });
});

describe('uploads with S3_* configured', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: true,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_PREFIX: 'it/',
    });
  });
  afterAll(() => t?.close());

  it('stores the bytes in the bucket and serves them back to their owner only', async () => {
    expect(t.app.container.storage.kind).toBe('s3');
    const owner = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const other = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const { payload, contentType } = multipart({ purpose: 'vehicle-image' }, { name: 'truck.png', data: PNG });
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...owner.headers, 'content-type': contentType },
      payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const { id } = up.json<{ data: { id: string } }>().data;
    const listed = await createS3Storage({ ...s3, region: 'us-east-1', forcePathStyle: true }).client.send(
      new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'it/' }),
    );
    expect(listed.Contents?.some((o) => o.Key?.endsWith(`/${id}`))).toBe(true);
    const down = await t.app.inject({ url: `/api/v1/files/${id}`, headers: owner.headers });
    expect(down.statusCode).toBe(200);
    expect(down.rawPayload.equals(PNG)).toBe(true);
    expect((await t.app.inject({ url: `/api/v1/files/${id}`, headers: other.headers })).statusCode).toBe(404);
  });
});
