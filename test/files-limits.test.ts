// The bounds and safety of files: size and quota (413 naming the limit, declared or found while
// streaming, nothing left behind), active content always downloaded, names cleaned, uploads rate limited.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let server: TestServer;
let user: { id: string; apiKey: string };

const test = testWith({ serverEnv: { DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'files-')), FILE_MAX_BYTES: '1000', FILE_QUOTA_BYTES: '1500', RATE_LIMIT_PER_MINUTE: '12' } });

test.beforeAll(async ({ server: s }) => {
  server = s;
  user = await server.createUser();
}, 60_000);

const upload = (body: BodyInit, filename: string, type = 'application/octet-stream', extra: RequestInit = {}) =>
  fetch(`${server.url}/v1/files?filename=${encodeURIComponent(filename)}`, { method: 'POST', headers: { authorization: `Bearer ${user.apiKey}`, 'content-type': type }, body, ...extra });

describe('files: limits and safety', () => {
  it('answers 413 past FILE_MAX_BYTES and past the quota, declared or streamed, and keeps nothing', async () => {
    const big = await upload(Buffer.alloc(1200), 'big.bin');
    expect(big.status).toBe(413);
    expect(((await big.json()) as any).error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', field: 'file', maxBytes: 1000 });
    // No Content-Length: found while streaming.
    const streamed = await upload(Readable.toWeb(Readable.from([Buffer.alloc(600), Buffer.alloc(600)])) as ReadableStream, 'chunked.bin', 'application/octet-stream', { duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);

    expect((await upload(Buffer.alloc(900, 1), 'first.bin')).status).toBe(201);
    const over = await upload(Buffer.alloc(700, 1), 'second.bin');
    expect(over.status).toBe(413);
    const error = ((await over.json()) as any).error;
    expect(error).toMatchObject({ quotaBytes: 1500, usedBytes: 900 });
    expect(error.message).toMatch(/quota of 1500 bytes/);
    const rows = await server.sql.selectFrom('files').select(['status', 'size']).where('ownerId', '=', user.id).execute();
    expect(rows).toEqual([{ status: 'stored', size: '900' }]);
  });

  it('sends HTML and SVG as attachments, images inline, with nosniff, and cleans names', async () => {
    const send = async (body: string, name: string, type: string) => ((await (await upload(body, name, type)).json()) as any).data;
    const html = await send('<script>alert(1)</script>', '../../etc/passwd"\u202e.html', 'text/html');
    expect(html.filename).toBe('passwd.html');
    const svg = await send('<svg xmlns="http://www.w3.org/2000/svg"/>', 'x.svg', 'image/svg+xml');
    const png = await send('not really a png', 'x.png', 'image/png; charset=binary');
    expect(png.mediaType).toBe('image/png');
    const get = (id: string) => fetch(`${server.url}/v1/files/${id}`, { headers: { authorization: `Bearer ${user.apiKey}` } });
    for (const file of [html, svg]) {
      const res = await get(file.id);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain('sandbox');
    }
    expect((await get(png.id)).headers.get('content-disposition')).toMatch(/^inline;/);
    const tail = await fetch(`${server.url}/v1/files/${png.id}`, { headers: { authorization: `Bearer ${user.apiKey}`, range: 'bytes=-4' } });
    expect(tail.status).toBe(206);
    expect(await tail.text()).toBe(' png');
  });

  it('counts uploads against the rate limit', async () => {
    let limited = 0;
    for (let i = 0; i < 14 && limited === 0; i++) if ((await upload('x', 'x.txt', 'text/plain')).status === 429) limited += 1;
    expect(limited).toBe(1);
  });
});
