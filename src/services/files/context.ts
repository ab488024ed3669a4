// What every file rule takes first (the dependencies, the blob storage and the file rows), and the shapes
// and errors they share.
import type { Readable } from 'node:stream';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import type { BlobStorage } from '../../files/storage.js';
import type { FileRow, FileStore } from '../../stores/file-store.js';

// How long an upload may take before the sweep counts it as abandoned; how often the sweep runs.
export const UNFINISHED_AFTER_MS = 60 * 60 * 1000;
export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface FileContext {
  deps: Deps;
  storage: BlobStorage;
  store: FileStore;
}

export interface Upload {
  filename: string | null | undefined;
  mediaType: string | null | undefined;
  // The Content-Length, when the client sent one: refused at once when too big.
  declaredSize: number | null;
  body: Readable;
}

export interface FileView {
  id: string;
  filename: string;
  mediaType: string;
  size: number;
  sha256: string;
  createdAt: string;
}

export const fileView = (row: FileRow): FileView => ({
  id: row.id,
  filename: row.filename,
  mediaType: row.mediaType,
  size: row.size,
  sha256: row.sha256 ?? '',
  createdAt: row.createdAt.toISOString(),
});

const mib = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.round(bytes / 102.4) / 10} KiB` : `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`);

export const tooLarge = (maxBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `the file is larger than the ${maxBytes} bytes (${mib(maxBytes)}) a file may have (FILE_MAX_BYTES)`, {
    field: 'file',
    details: { maxBytes },
  });
export const overQuota = (quotaBytes: number, usedBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `the file does not fit in your storage quota of ${quotaBytes} bytes (${mib(quotaBytes)}); ${usedBytes} bytes are in use`, {
    field: 'file',
    details: { quotaBytes, usedBytes },
  });

// Another run is storing this artifact part at the moment; the caller tries again later.
export class PartInFlightError extends Error {
  constructor(artifactPart: string) {
    super(`the file of ${artifactPart} is being stored by another run`);
    this.name = 'PartInFlightError';
  }
}
