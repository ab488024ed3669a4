// Files (docs/files.md): uploads streamed into the storage and hashed on the way, downloads for the
// owner and the parties of the tasks that use a file, signed links for agents, and the sweeps that
// remove unfinished uploads and the files of long-finished tasks.
//
// The rules are plain functions of a FileContext in this folder's modules; this service binds them to
// one storage, so callers say `services.files.upload(…)`.
import type { Deps } from '../../deps.js';
import type { BlobStorage, ByteRange } from '../../files/storage.js';
import { fileStore, type FileRow } from '../../stores/file-store.js';
import type { Viewer } from '../accounts/index.js';
import type { FileContext, Upload } from './context.js';
import { describe, forLink, forViewer } from './reads.js';
import { discard, receive } from './receive.js';
import { schedule, sweep } from './sweep.js';
import { keepArtifactPart, signedUploader, taskUploader, uploadLink } from './uploads.js';

export { fileView, PartInFlightError, SWEEP_INTERVAL_MS, UNFINISHED_AFTER_MS } from './context.js';
export type { FileContext, FileView, Upload } from './context.js';

export function fileService(deps: Deps, storage: BlobStorage) {
  const ctx: FileContext = { deps, storage, store: fileStore(deps.sql) };
  const bound = <A extends unknown[], R>(rule: (ctx: FileContext, ...args: A) => R) => (...args: A): R => rule(ctx, ...args);
  return {
    storage,
    store: ctx.store,
    upload: (viewer: Viewer, upload: Upload) => receive(ctx, viewer.id, null, upload),
    signedUploader: bound(signedUploader),
    uploadLink: bound(uploadLink),
    taskUploader: bound(taskUploader),
    keepArtifactPart: bound(keepArtifactPart),
    // Removes a kept file that ended up unused (its task's result was refused); the sweep retries on failure.
    discard: bound(discard),
    describe: bound(describe),
    forViewer: bound(forViewer),
    forLink: bound(forLink),
    open: (row: FileRow, range?: ByteRange) => storage.get(row.storageKey, range),
    schedule: bound(schedule),
    sweep: bound(sweep),
  };
}

export type FileService = ReturnType<typeof fileService>;
