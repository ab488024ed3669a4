// The embedded database's files hold everything the service knows (emails, task inputs, in the WAL
// too), so only the service's own user may read them. PGlite's file system layer creates its initial
// files 0666 whatever the umask, so modes are set here instead: directories 0700, files 0600.
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

export const OWNER_DIR_MODE = 0o700;
export const OWNER_FILE_MODE = 0o600;

/** Creates the directory if needed and makes it the owner's only (also when it existed with other modes). */
export async function ownerOnlyDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: OWNER_DIR_MODE });
  await chmod(dir, OWNER_DIR_MODE);
}

/** Makes everything under `dir` (and dir itself) the owner's only; symbolic links are left alone. */
export async function ownerOnlyTree(dir: string): Promise<void> {
  await chmod(dir, OWNER_DIR_MODE);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) await ownerOnlyTree(at);
    else if (!entry.isSymbolicLink() && (await lstat(at)).mode & 0o077) await chmod(at, OWNER_FILE_MODE);
  }
}
