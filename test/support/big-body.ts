// Large request bodies made on the fly, never held whole in memory, with their SHA-256.
import { createHash } from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';

const CHUNK = 64 * 1024;

// `size` bytes of a repeating pattern, streamed; `hash` is known beforehand by hashing the same stream.
export function patternStream(size: number, seed = 7): Readable {
  let sent = 0;
  const chunk = Buffer.alloc(CHUNK);
  for (let i = 0; i < CHUNK; i++) chunk[i] = (i * 31 + seed) & 0xff;
  return new Readable({
    read() {
      if (sent >= size) return void this.push(null);
      const n = Math.min(CHUNK, size - sent);
      sent += n;
      this.push(n === CHUNK ? chunk : chunk.subarray(0, n));
    },
  });
}

export async function sha256Of(stream: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const part of stream) {
    hash.update(part);
    size += part.length;
  }
  return { sha256: hash.digest('hex'), size };
}

// POSTs a stream with a Content-Length; resolves with the status and JSON answer.
export function postStream(url: string, body: Readable, size: number, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(size) } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null });
      });
    });
    req.on('error', reject);
    body.pipe(req);
  });
}
