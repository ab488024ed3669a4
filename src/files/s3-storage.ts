// Files in an S3-compatible object store (FILE_STORAGE_URL=s3://bucket?endpoint=…&region=…), through the
// AWS SDK v3: @aws-sdk/lib-storage's Upload streams a body of unknown length as a multipart upload, a
// few parts of 5 MiB in memory at a time, and the object exists only once the upload is completed. A
// failed upload is aborted; one cut short by a crash stays an open multipart upload, which
// sweepTemporary aborts.
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { lazyImport } from '../load-package.js';
import { checkKey, type BlobStorage, type ByteRange } from './storage.js';

export interface S3Location {
  bucket: string;
  endpoint: string | null;
  region: string;
  // From the URL's user info; otherwise the SDK's usual sources (AWS_ACCESS_KEY_ID, profiles, roles).
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  prefix: string;
}

// s3://[key:secret@]bucket[/prefix]?endpoint=https://…&region=…
export function parseS3Url(value: string): S3Location {
  const url = new URL(value);
  if (url.protocol !== 's3:' || !url.hostname) throw new Error('must look like s3://bucket?endpoint=…&region=…');
  const endpoint = url.searchParams.get('endpoint');
  if (endpoint !== null && !/^https?:\/\//.test(endpoint)) throw new Error('endpoint must be an http(s) URL');
  const prefix = decodeURIComponent(url.pathname.replace(/^\/+/, ''));
  return {
    bucket: url.hostname,
    endpoint,
    region: url.searchParams.get('region') ?? 'us-east-1',
    credentials: url.username ? { accessKeyId: decodeURIComponent(url.username), secretAccessKey: decodeURIComponent(url.password) } : null,
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
  };
}

// The SDK (about 14 MB resident) is loaded with the first use of the storage, and never by a service that
// keeps its files on local disk.
const loadSdk = lazyImport(() => Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]));

export function s3Storage(location: S3Location): BlobStorage {
  let client: S3Client | undefined;
  const connect = async () => {
    const [s3, storage] = await loadSdk();
    client ??= new s3.S3Client({
      region: location.region,
      ...(location.endpoint ? { endpoint: location.endpoint, forcePathStyle: true } : {}),
      ...(location.credentials ? { credentials: location.credentials } : {}),
    });
    return { s3, Upload: storage.Upload, client };
  };
  const Bucket = location.bucket;
  const keyOf = (key: string) => `${location.prefix}${checkKey(key)}`;

  return {
    kind: 's3',
    async put(key, body, mediaType) {
      const { Upload, client } = await connect();
      // Two parts in flight at most: memory per upload stays near 10 MiB whatever the file's size.
      const upload = new Upload({ client, params: { Bucket, Key: keyOf(key), Body: body, ContentType: mediaType }, queueSize: 2, partSize: 5 * 1024 * 1024 });
      // A body that fails (the client went away, the size limit), even before this point, ends the upload
      // too; a body that ends well leaves the answer to the upload.
      const failed = finished(body).then(() => new Promise<never>(() => {}));
      try {
        await Promise.race([upload.done(), failed]);
      } catch (error) {
        await upload.abort().catch(() => {});
        body.destroy();
        throw error;
      }
    },
    async get(key, range?: ByteRange) {
      const { s3, client } = await connect();
      const answer = await client.send(new s3.GetObjectCommand({ Bucket, Key: keyOf(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
      return answer.Body as Readable;
    },
    async delete(key) {
      const { s3, client } = await connect();
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
    async *list() {
      const { s3, client } = await connect();
      let token: string | undefined;
      do {
        const page = await client.send(new s3.ListObjectsV2Command({ Bucket, Prefix: location.prefix || undefined, ContinuationToken: token }));
        for (const object of page.Contents ?? []) if (object.Key) yield object.Key.slice(location.prefix.length);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async sweepTemporary(before) {
      const { s3, client } = await connect();
      let removed = 0;
      const unfinished = await client.send(new s3.ListMultipartUploadsCommand({ Bucket, Prefix: location.prefix || undefined })).catch(() => null);
      for (const upload of unfinished?.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= before) continue;
        await client.send(new s3.AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId })).catch(() => {});
        removed += 1;
      }
      return removed;
    },
    async close() {
      client?.destroy();
    },
  };
}
