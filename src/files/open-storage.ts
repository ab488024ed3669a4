// The storage FILE_STORAGE_URL names: S3-compatible for s3://…, local disk under DATA_DIR otherwise.
import type { Config } from '../config.js';
import { localStorage } from './local-storage.js';
import { parseS3Url, s3Storage } from './s3-storage.js';
import type { BlobStorage } from './storage.js';

export function openStorage(config: Config): BlobStorage {
  const url = config.files.storageUrl;
  if (url) return s3Storage(parseS3Url(url));
  return localStorage(config.dataDir);
}
