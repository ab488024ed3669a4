// The storage port for files' bytes (docs/files.md): local disk under DATA_DIR, or an S3-compatible
// object store. Both stream in and out; neither holds a whole file in memory. A blob appears under its
// key only once all of it was written (a temporary name first), so a reader never sees half a file.
import type { Readable } from 'node:stream';

export interface ByteRange {
  // Inclusive, as in the Range header.
  start: number;
  end: number;
}

export interface BlobStorage {
  readonly kind: 'local' | 's3';
  // Writes the stream under `key`; rejects (and leaves nothing under `key`) when the stream fails.
  put(key: string, body: Readable, mediaType: string): Promise<void>;
  // The blob's bytes, or the range of them.
  get(key: string, range?: ByteRange): Promise<Readable>;
  // Removes the blob; a missing one is not an error (jobs run again).
  delete(key: string): Promise<void>;
  // The keys of the blobs stored (not the temporary ones), for the sweep and tests.
  list(): AsyncIterable<string>;
  // Removes what unfinished writes left behind (temporary files, open multipart uploads) begun before `before`.
  sweepTemporary(before: Date): Promise<number>;
  close(): Promise<void>;
}

// Keys are file ids: letters, digits and underscores, never a path.
export function checkKey(key: string): string {
  if (!/^[A-Za-z0-9_]{1,100}$/.test(key)) throw new Error(`not a storage key: ${key}`);
  return key;
}
