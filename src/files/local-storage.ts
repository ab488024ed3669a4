// Files on local disk under DATA_DIR/files. A write goes to DATA_DIR/files/.tmp/<random> and is renamed
// into place when complete: a rename within one file system is atomic, so a crash leaves only a
// temporary file, which sweepTemporary removes.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { checkKey, type BlobStorage, type ByteRange } from './storage.js';

// A directory not made yet (nothing was ever uploaded) holds nothing.
function missing(error: NodeJS.ErrnoException): never[] {
  if (error.code === 'ENOENT') return [];
  throw error;
}

export function localStorage(dataDir: string): BlobStorage {
  const root = path.resolve(dataDir, 'files');
  const temp = path.join(root, '.tmp');
  // Made on first use, so a service that never sees a file makes no directory.
  let made: Promise<unknown> | null = null;
  const ready = () => (made ??= mkdir(temp, { recursive: true, mode: 0o700 }));
  const pathOf = (key: string) => path.join(root, checkKey(key));

  return {
    kind: 'local',
    async put(key, body: Readable) {
      const target = pathOf(key);
      const partial = path.join(temp, randomUUID());
      await ready();
      // A body that failed while the directory was made (over the quota, the client gone) writes nothing.
      if (body.errored) throw body.errored;
      const file = createWriteStream(partial, { mode: 0o600 });
      try {
        await pipeline(body, file);
        await rename(partial, target);
      } catch (error) {
        // The file is opened asynchronously: removed only once closed, or the open would make it again.
        if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
        await rm(partial, { force: true });
        throw error;
      }
    },
    async get(key, range?: ByteRange) {
      const file = pathOf(key);
      // Opened before it is returned, so a missing blob rejects here rather than on the response.
      await stat(file);
      return createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async *list() {
      for (const entry of await readdir(root, { withFileTypes: true }).catch(missing)) if (entry.isFile()) yield entry.name;
    },
    async sweepTemporary(before) {
      let removed = 0;
      for (const name of await readdir(temp).catch(missing)) {
        const file = path.join(temp, name);
        const info = await stat(file).catch(() => null);
        if (info && info.mtime < before) {
          await rm(file, { force: true });
          removed += 1;
        }
      }
      return removed;
    },
    async close() {},
  };
}
