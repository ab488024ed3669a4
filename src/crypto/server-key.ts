// The server key encrypts webhook secrets and derives task tokens. It comes from SECRET_KEY (32 bytes as
// base64 or hex); without it, one is created under DATA_DIR on first start and reused afterwards.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export function parseKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('SECRET_KEY must be 32 bytes, written as 64 hex digits or base64');
  return key;
}

export async function loadServerKey(opts: { secretKey: string | null; dataDir: string }): Promise<Buffer> {
  if (opts.secretKey) return parseKey(opts.secretKey);
  const file = path.resolve(opts.dataDir, 'secret.key');
  try {
    return parseKey(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  // 'wx' fails when another process created the file first; then that key is the one to use.
  try {
    await writeFile(file, key.toString('base64') + '\n', { flag: 'wx', mode: 0o600 });
    return key;
  } catch {
    return parseKey(await readFile(file, 'utf8'));
  }
}
