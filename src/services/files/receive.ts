// An upload stored: the quota checked and the declared bytes reserved under the owner's lock, the bytes
// streamed into the storage, counted and hashed on the way, and the row marked stored when they fit.
import { createHash } from 'node:crypto';
import { finished, Transform } from 'node:stream';
import { AppError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { normalizeMediaType, sanitizeFilename } from '../../files/names.js';
import { fileView, overQuota, PartInFlightError, tooLarge, type FileContext, type FileView, type Upload } from './context.js';

// `uploadLinkId`: the pre-signed link it comes by, which stores one file. `artifactPart`: the A2A
// artifact part it is kept from, kept once per task.
export async function receive(
  ctx: FileContext,
  ownerId: string,
  taskId: string | null,
  upload: Upload,
  once: { uploadLinkId?: string; artifactPart?: string } = {},
): Promise<FileView> {
  const { deps, storage, store } = ctx;
  const { maxBytes, quotaBytes } = deps.config.files;
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
    const row = { id, ownerId, taskId, filename: sanitizeFilename(upload.filename), mediaType, storageKey: id, createdAt: deps.clock.now(), ...once };
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
    await discard(ctx, id);
    if (limitError) throw limitError;
    throw error;
  }
  // Uploads without a declared size reserved nothing: whether this one still fits is decided under the
  // lock again, against everything else the owner holds or reserved meanwhile.
  const outcome = await deps.sql.transaction().execute(async (tx) => {
    await store.lockOwner(ownerId, tx);
    const others = await store.usedBytes(ownerId, tx, id);
    if (others + size > quotaBytes) return { others, stored: null };
    return { others, stored: await store.markStored(id, { size, sha256: hash.digest('hex'), storedAt: deps.clock.now() }, tx) };
  });
  if (!outcome.stored) {
    await discard(ctx, id);
    if (outcome.others + size > quotaBytes) throw overQuota(quotaBytes, outcome.others);
    throw notFound('file');
  }
  return fileView(outcome.stored);
}

// Bytes first, then the row: a row never points at nothing for long, and the sweep finds the rest.
export async function discard(ctx: FileContext, id: string): Promise<void> {
  try {
    await ctx.storage.delete(id);
    await ctx.store.remove(id);
  } catch (error) {
    ctx.deps.logger.warn({ err: error, fileId: id }, 'an unfinished upload could not be removed now; the sweep will');
  }
}
