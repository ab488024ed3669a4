// Uploads at once against a small quota: the check and the row are one step under the owner's lock (and
// an upload of unknown length is checked again when stored), so together they never keep more than the
// quota; the rest answer 413 with the quota and leave nothing behind.
import { readdir, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { until } from './support/wait.js';

let server: TestServer;
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'files-quota-'));

const test = testWith({ serverEnv: { DATA_DIR: dataDir, FILE_MAX_BYTES: '1000', FILE_QUOTA_BYTES: '1000' } });

test.beforeAll(async ({ server: s }) => {
  server = s;
}, 60_000);

// With a Content-Length (the bytes are reserved when the row is written), or streamed without one (the
// size is known only at the end).
function upload(apiKey: string, i: number, declared: boolean): Promise<Response> {
  const bytes = Buffer.alloc(300, i);
  const body = declared ? new Uint8Array(bytes) : (Readable.toWeb(Readable.from([bytes.subarray(0, 150), bytes.subarray(150)])) as ReadableStream);
  return fetch(`${server.url}/v1/files?filename=part-${i}.bin`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/octet-stream' },
    body,
    ...(declared ? {} : { duplex: 'half' }),
  } as RequestInit);
}

describe('files: the quota under concurrent uploads', () => {
  for (const [label, declared] of [['declared', [true]], ['streamed', [false]], ['mixed', [true, false]]] as const) {
    it(`keeps at most the quota when 16 uploads (${label} sizes) arrive at once`, async () => {
      const user = await server.createUser();
      const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => upload(user.apiKey, i, declared[i % declared.length]!)));
      const statuses = answers.map((a) => a.status);
      // 3 × 300 bytes fit in 1000; a fourth would not.
      expect(statuses.filter((s) => s === 201)).toHaveLength(3);
      expect(statuses.filter((s) => s === 413)).toHaveLength(13);
      for (const answer of answers.filter((a) => a.status === 413)) {
        expect(((await answer.json()) as any).error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', field: 'file', quotaBytes: 1000 });
      }
      const rows = await server.sql.selectFrom('files').select(['id', 'size', 'status']).where('ownerId', '=', user.id).execute();
      expect(rows.map((r) => [r.status, Number(r.size)])).toEqual([['stored', 300], ['stored', 300], ['stored', 300]]);
      // Only the kept files' bytes are on disk.
      const blobs = (await readdir(path.join(dataDir, 'files'), { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
      for (const row of rows) expect(blobs).toContain(row.id);
      // A refused upload's partial bytes are removed as its stream closes, which may be just after its 413.
      await until('the refused uploads\' partial bytes removed', async () => (await readdir(path.join(dataDir, 'files', '.tmp'))).length === 0);
    });
  }
});
