// Files (docs/files.md): uploads streamed into the storage and hashed on the way, downloads for the
// owner and the parties of the tasks that use a file, signed links for agents, and the sweeps that
// remove unfinished uploads and the files of long-finished tasks.
import { createHash } from 'node:crypto';
import { finished, Transform, type Readable } from 'node:stream';
import type { Deps } from '../deps.js';
import { AppError, notFound, unauthenticated } from '../errors.js';
import { newId } from '../ids.js';
import { enqueue } from '../stores/job-store.js';
import { sweepFiles } from '../jobs/specs/files-sweep.js';
import { fileStore, type FileRow } from '../stores/file-store.js';
import { taskTokenWithOwner } from '../stores/task-store.js';
import type { BlobStorage, ByteRange } from '../files/storage.js';
import { normalizeMediaType, sanitizeFilename } from '../files/names.js';
import { checkSignedLink, checkSignedUpload, signedUploadUrl } from '../files/signed-link.js';
import { isIssuedToken, tokenMatches } from './task-token.js';
import { createUploadLink, liveUploadLinkUser, removeExpiredUploadLinks, type UploadCredentialKind } from '../stores/file-upload-link-store.js';
import { WITH_AGENT } from '../lifecycle/task-lifecycle.js';
import type { Viewer } from './accounts/index.js';

// How long an upload may take before the sweep counts it as abandoned; how often the sweep runs.
export const UNFINISHED_AFTER_MS = 60 * 60 * 1000;
export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const UPLOAD_LINK_MS = 15 * 60 * 1000;

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

const tooLarge = (maxBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `the file is larger than the ${maxBytes} bytes (${mib(maxBytes)}) a file may have (FILE_MAX_BYTES)`, {
    field: 'file',
    details: { maxBytes },
  });
const overQuota = (quotaBytes: number, usedBytes: number) =>
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

export function fileService(deps: Deps, storage: BlobStorage) {
  const { config, clock, logger } = deps;
  const store = fileStore(deps.sql);

  // `uploadLinkId`: the pre-signed link it comes by, which stores one file. `artifactPart`: the A2A
  // artifact part it is kept from, kept once per task.
  async function receive(ownerId: string, taskId: string | null, upload: Upload, once: { uploadLinkId?: string; artifactPart?: string } = {}): Promise<FileView> {
    const { maxBytes, quotaBytes } = config.files;
    if (upload.declaredSize !== null && upload.declaredSize > maxBytes) throw tooLarge(maxBytes);
    const id = newId('fil');
    const mediaType = normalizeMediaType(upload.mediaType);
    const reserved = upload.declaredSize ?? 0;
    // The quota is checked and the declared bytes reserved under the owner's lock, in the transaction that
    // writes the row: uploads at once are counted one after the other.
    const used = await deps.sql.transaction().execute(async (tx) => {
      await store.lockOwner(ownerId, tx);
      const inUse = await store.usedBytes(ownerId, tx);
      if (inUse + reserved > quotaBytes || inUse >= quotaBytes) throw overQuota(quotaBytes, inUse);
      const row = { id, ownerId, taskId, filename: sanitizeFilename(upload.filename), mediaType, storageKey: id, createdAt: clock.now(), ...once };
      if (!(await store.insertUploading(row, reserved, tx))) {
        if (once.artifactPart) throw new PartInFlightError(once.artifactPart);
        throw new AppError('CONFLICT', 'this upload link has stored its file already; ask for a new one (createFileUpload)');
      }
      return inUse;
    });
    const limit = Math.min(maxBytes, quotaBytes - used);
    // Counted and hashed as the bytes pass; past the limit the stream fails and the write is undone.
    const hash = createHash('sha256');
    let size = 0;
    let limitError: AppError | null = null;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > limit) {
          limitError = limit === maxBytes ? tooLarge(maxBytes) : overQuota(quotaBytes, used);
          return done(limitError);
        }
        hash.update(chunk);
        done(null, chunk);
      },
    });
    // The storage may attach to the counter only after an await (a directory made, a client ready); an
    // error before that is kept on the stream (counter.errored) and reported by storage.put, not thrown.
    counter.on('error', () => {});
    // The body may have failed already while the row was written (a form cut short, a client gone):
    // finished() reports that too, where an 'error' listener added now would never hear it and the
    // write would wait for bytes that never come.
    finished(upload.body, { writable: false }, (error) => {
      if (error) counter.destroy(error);
    });
    upload.body.pipe(counter);
    try {
      await storage.put(id, counter, mediaType);
    } catch (error) {
      await discard(id);
      if (limitError) throw limitError;
      throw error;
    }
    // Uploads without a declared size reserved nothing: whether this one still fits is decided under the
    // lock again, against everything else the owner holds or reserved meanwhile.
    const outcome = await deps.sql.transaction().execute(async (tx) => {
      await store.lockOwner(ownerId, tx);
      const others = await store.usedBytes(ownerId, tx, id);
      if (others + size > quotaBytes) return { others, stored: null };
      return { others, stored: await store.markStored(id, { size, sha256: hash.digest('hex'), storedAt: clock.now() }, tx) };
    });
    if (!outcome.stored) {
      await discard(id);
      if (outcome.others + size > quotaBytes) throw overQuota(quotaBytes, outcome.others);
      throw notFound('file');
    }
    return fileView(outcome.stored);
  }

  // Bytes first, then the row: a row never points at nothing for long, and the sweep finds the rest.
  async function discard(id: string): Promise<void> {
    try {
      await storage.delete(id);
      await store.remove(id);
    } catch (error) {
      logger.warn({ err: error, fileId: id }, 'an unfinished upload could not be removed now; the sweep will');
    }
  }

  async function readable(viewer: Viewer, id: string): Promise<FileRow> {
    const row = await store.byId(id);
    // Someone else's file is answered like a missing one: ids are not probed.
    if (!row || row.status !== 'stored') throw notFound('file');
    if (row.ownerId === viewer.id || (await store.isPartyOfTaskUsing(id, viewer.id))) return row;
    throw notFound('file');
  }

  return {
    storage,
    store,

    upload: (viewer: Viewer, upload: Upload) => receive(viewer.id, null, upload),

    // A pre-signed upload (createFileUpload): the link names the user it uploads for, and is checked
    // (with the credential that made it) before any of the body is read. It stores one file: a second
    // upload by it is refused, and one that fails frees it again.
    async signedUploader(params: URLSearchParams): Promise<(upload: Upload) => Promise<FileView>> {
      const userId = params.get('uploader');
      const linkId = params.get('link');
      const check = checkSignedUpload(deps.serverKey, userId, linkId, params.get('expires'), params.get('sig'), clock.now());
      if (check === 'expired') throw new AppError('FORBIDDEN', 'this upload link has expired');
      if (check === 'invalid') throw new AppError('FORBIDDEN', 'this upload link is not valid');
      if ((await liveUploadLinkUser(deps.sql, linkId!, clock.now())) !== userId) {
        throw new AppError('FORBIDDEN', 'this upload link no longer works: the credential that made it was revoked or has expired');
      }
      return (upload) => receive(userId!, null, upload, { uploadLinkId: linkId! });
    },

    // A link to upload one file as the viewer, for 15 minutes, while the credential it was made with lives.
    async uploadLink(viewer: Viewer, credential: { kind: UploadCredentialKind; id: string | null }): Promise<{ url: string; expiresAt: Date }> {
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + UPLOAD_LINK_MS);
      const id = newId('upl');
      await createUploadLink(deps.sql, { id, userId: viewer.id, credentialKind: credential.kind, credentialId: credential.id, expiresAt, createdAt: now });
      return { url: signedUploadUrl(deps.urls.base, deps.serverKey, viewer.id, id, expiresAt), expiresAt };
    },

    // An agent's result file, authenticated by its task token: kept for that task, counted against the
    // quota of the agent's owner. The token is checked before any of the body is read: `receive` takes it.
    async taskUploader(taskId: string, token: string): Promise<(upload: Upload) => Promise<FileView>> {
      const task = await taskTokenWithOwner(deps.sql, taskId);
      // A finished task's own token is told apart from a wrong one: its agent hears 409 (the task is over).
      if (!task || !(tokenMatches(token, task.tokenHash) || isIssuedToken(deps.serverKey, { id: taskId, tokenNonce: task.tokenNonce }, token))) {
        throw unauthenticated('the task token is not valid for this task');
      }
      if (!WITH_AGENT.includes(task.status)) {
        throw new AppError('CONFLICT', `the task is ${task.status}; result files are added while the agent works on it`, { details: { status: task.status } });
      }
      return (upload) => receive(task.ownerId, taskId, upload);
    },

    // A file an A2A agent returned in an artifact part (a2a-artifact-files.ts): kept for the task
    // like a result upload, counted against the quota of the agent's owner, once per task and part. A part
    // kept already is answered as it is, without fetching anything; one being stored right now (another
    // run of the job) is a PartInFlightError, for the job to come back to.
    async keepArtifactPart(ownerId: string, taskId: string, artifactPart: string, fetchUpload: () => Promise<Upload>): Promise<FileView> {
      const existing = await store.byArtifactPart(taskId, artifactPart);
      if (existing?.status === 'stored') return fileView(existing);
      if (existing) throw new PartInFlightError(artifactPart);
      return receive(ownerId, taskId, await fetchUpload(), { artifactPart });
    },

    // Removes a kept file that ended up unused (its task's result was refused); the sweep retries on failure.
    discard,

    async describe(viewer: Viewer, id: string): Promise<FileView> {
      return fileView(await readable(viewer, id));
    },

    // The file to send, for a signed-in caller or a signed link.
    async forViewer(viewer: Viewer, id: string): Promise<FileRow> {
      return readable(viewer, id);
    },

    async forLink(id: string, expires: string | null, sig: string | null): Promise<FileRow> {
      const check = checkSignedLink(deps.serverKey, id, expires, sig, clock.now());
      if (check === 'expired') throw new AppError('FORBIDDEN', 'this link has expired');
      if (check === 'invalid') throw new AppError('FORBIDDEN', 'this link is not valid for this file');
      const row = await store.byId(id);
      if (!row || row.status !== 'stored') throw notFound('file');
      return row;
    },

    open: (row: FileRow, range?: ByteRange) => storage.get(row.storageKey, range),

    // Starts the hourly chain: a no-op while a sweep is pending.
    async schedule(): Promise<void> {
      await enqueue(deps.sql, sweepFiles, {}, { runAt: new Date(clock.now().getTime() + SWEEP_INTERVAL_MS), jobKeyMode: 'preserve_run_at' });
    },

    // Job files.sweep: schedules the next one first, then removes unfinished uploads, blobs no row knows,
    // and the files of tasks finished more than FILE_RETENTION_DAYS ago.
    async sweep(now = clock.now()): Promise<{ unfinished: number; orphans: number; retired: number }> {
      await enqueue(deps.sql, sweepFiles, {}, { runAt: new Date(now.getTime() + SWEEP_INTERVAL_MS), jobKeyMode: 'replace' });
      const stale = new Date(now.getTime() - UNFINISHED_AFTER_MS);
      let unfinished = await storage.sweepTemporary(stale);
      for (const row of await store.unfinished(stale, 1000)) {
        await storage.delete(row.storageKey);
        await store.remove(row.id);
        unfinished += 1;
      }
      // A blob without a row: its row was removed and the blob's removal failed (rows come first on upload).
      let orphans = 0;
      let batch: string[] = [];
      const removeUnknown = async () => {
        const known = await store.storedKeys(batch);
        for (const key of batch) if (!known.has(key)) {
          await storage.delete(key);
          orphans += 1;
        }
        batch = [];
      };
      for await (const key of storage.list()) {
        batch.push(key);
        if (batch.length >= 500) await removeUnknown();
      }
      await removeUnknown();
      let retired = 0;
      const before = new Date(now.getTime() - config.files.retentionDays * DAY_MS);
      for (const row of await store.retired(before, 1000)) {
        await storage.delete(row.storageKey);
        await store.remove(row.id);
        retired += 1;
      }
      // Upload links past their expiry can store nothing more.
      await removeExpiredUploadLinks(deps.sql, now);
      if (unfinished + orphans + retired > 0) logger.info({ unfinished, orphans, retired }, 'removed files');
      return { unfinished, orphans, retired };
    },
  };
}

export type FileService = ReturnType<typeof fileService>;
