// A local S3-compatible server (s3rver) on loopback for the S3 storage adapter's tests.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  // FILE_STORAGE_URL for the bucket
  url: string;
  close(): Promise<void>;
}

export async function startTestS3(bucket = 'files'): Promise<TestS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const address = (await server.run()) as { port: number };
  return {
    // s3rver accepts its default credentials, S3RVER / S3RVER.
    url: `s3://S3RVER:S3RVER@${bucket}?endpoint=${encodeURIComponent(`http://127.0.0.1:${address.port}`)}&region=us-east-1`,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
