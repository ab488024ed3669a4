// The hourly sweep (job files.sweep): unfinished uploads, blobs no row knows, the files of long-finished
// tasks and expired upload links.
import { sweepFiles } from '../../jobs/specs/files-sweep.js';
import { removeExpiredUploadLinks } from '../../stores/file-upload-link-store.js';
import { enqueue } from '../../stores/job-store.js';
import { SWEEP_INTERVAL_MS, UNFINISHED_AFTER_MS, type FileContext } from './context.js';

const DAY_MS = 24 * 60 * 60 * 1000;

// Starts the hourly chain: a no-op while a sweep is pending.
export async function schedule(ctx: FileContext): Promise<void> {
  const { deps } = ctx;
  await enqueue(deps.sql, sweepFiles, {}, { runAt: new Date(deps.clock.now().getTime() + SWEEP_INTERVAL_MS), jobKeyMode: 'preserve_run_at' });
}

// Schedules the next sweep first, then removes unfinished uploads, blobs no row knows, and the files of
// tasks finished more than FILE_RETENTION_DAYS ago.
export async function sweep(ctx: FileContext, now = ctx.deps.clock.now()): Promise<{ unfinished: number; orphans: number; retired: number }> {
  const { deps, storage, store } = ctx;
  await enqueue(deps.sql, sweepFiles, {}, { runAt: new Date(now.getTime() + SWEEP_INTERVAL_MS), jobKeyMode: 'replace' });
  const stale = new Date(now.getTime() - UNFINISHED_AFTER_MS);
  let unfinished = await storage.sweepTemporary(stale);
  for (const row of await store.unfinished(stale, 1000)) {
    await storage.delete(row.storageKey);
    await store.remove(row.id);
    unfinished += 1;
  }
  const orphans = await removeOrphans(ctx);
  let retired = 0;
  const before = new Date(now.getTime() - deps.config.files.retentionDays * DAY_MS);
  for (const row of await store.retired(before, 1000)) {
    await storage.delete(row.storageKey);
    await store.remove(row.id);
    retired += 1;
  }
  // Upload links past their expiry can store nothing more.
  await removeExpiredUploadLinks(deps.sql, now);
  if (unfinished + orphans + retired > 0) deps.logger.info({ unfinished, orphans, retired }, 'removed files');
  return { unfinished, orphans, retired };
}

// A blob without a row: its row was removed and the blob's removal failed (rows come first on upload).
async function removeOrphans(ctx: FileContext): Promise<number> {
  const { storage, store } = ctx;
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
  return orphans;
}
