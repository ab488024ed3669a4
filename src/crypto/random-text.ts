// Random text from the operating system's CSPRNG, drawn from a block fetched a few kilobytes at a time:
// one randomBytes call costs about as much as the text it makes five times over, and a create makes half
// a dozen ids and a token nonce. Every byte of a block is handed out once, so each value is as
// unpredictable as its own randomBytes call would make it. (Node's randomUUID keeps such a block too.)
import { randomBytes } from 'node:crypto';

const BLOCK_BYTES = 4096;
let block = Buffer.alloc(0);
let used = 0;

// `bytes` random bytes as text in `encoding`.
export function randomText(bytes: number, encoding: 'hex' | 'base64url'): string {
  if (bytes > BLOCK_BYTES) return randomBytes(bytes).toString(encoding);
  if (used + bytes > block.length) {
    block = randomBytes(BLOCK_BYTES);
    used = 0;
  }
  const text = block.toString(encoding, used, used + bytes);
  used += bytes;
  return text;
}
