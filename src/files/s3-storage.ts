// Files in an S3-compatible object store (FILE_STORAGE_URL=s3://bucket?endpoint=…&region=…), through the
// AWS SDK v3: @aws-sdk/lib-storage's Upload streams a body of unknown length as a multipart upload, a
// few parts of 5 MiB in memory at a time, and the object exists only once the upload is completed. A
// failed upload is aborted; one cut short by a crash stays an open multipart upload, which
// sweepTemporary aborts.
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
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

export function s3Storage(location: S3Location): BlobStorage {
  const client = new S3Client({
    region: location.region,
    ...(location.endpoint ? { endpoint: location.endpoint, forcePathStyle: true } : {}),
    ...(location.credentials ? { credentials: location.credentials } : {}),
  });
  const Bucket = location.bucket;
  const keyOf = (key: string) => `${location.prefix}${checkKey(key)}`;

  return {
    kind: 's3',
    async put(key, body, mediaType) {
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
      const answer = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
      return answer.Body as Readable;
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
    async *list() {
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: location.prefix || undefined, ContinuationToken: token }));
        for (const object of page.Contents ?? []) if (object.Key) yield object.Key.slice(location.prefix.length);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async sweepTemporary(before) {
      let removed = 0;
      const open = await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: location.prefix || undefined })).catch(() => null);
      for (const upload of open?.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= before) continue;
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId })).catch(() => {});
        removed += 1;
      }
      return removed;
    },
    async close() {
      client.destroy();
    },
  };
}
