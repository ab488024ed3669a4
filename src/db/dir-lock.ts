// A PGlite data directory must be opened by one process at a time. The owner writes its pid into a lock
// file; a lock whose process is gone is taken over.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function lockHolder(dataDir: string): Promise<number | null> {
  try {
    const pid = Number((await readFile(path.join(dataDir, 'pglite.lock'), 'utf8')).trim());
    return Number.isInteger(pid) && pid !== process.pid && alive(pid) ? pid : null;
  } catch {
    return null;
  }
}

// Returns a release function, or null when a live process holds the directory.
export async function lockDataDir(dataDir: string): Promise<(() => Promise<void>) | null> {
  const file = path.join(dataDir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await lockHolder(dataDir)) return null;
      await rm(file, { force: true });
    }
  }
  return null;
}
