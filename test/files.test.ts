// Files end to end, on the local disk storage and on S3 (s3rver on loopback): a requester uploads a
// 50 MiB file (streamed) and a small PDF, a real HTTP agent fetches both by their signed links, adds a
// result file with its task token and completes; the requester reads it whole and by range; nobody else
// can; an expired link is refused; hashes match; a killed upload leaves nothing after the sweep; files
// of long-finished tasks are removed.
import http from 'node:http';
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';
import { callBack, startTestAgent, waitForStatus, type ReceivedDelivery, type TestAgent } from './support/agent.js';
import { startTestS3, type TestS3 } from './support/s3.js';
import { patternStream, postStream, sha256Of } from './support/big-body.js';
import { evidenceHash } from '../src/services/evidence.js';
import { until } from './support/wait.js';

const MiB = 1024 * 1024;
const BIG = 50 * MiB;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

describe.each(['local', 's3'] as const)('files on %s storage', (kind) => {
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  let s3: TestS3 | null = null;
  let server: TestServer;
  let agent: TestAgent;
  let agentId: string;
  let requester: { id: string; apiKey: string };
  let owner: { id: string; apiKey: string };
  let stranger: { id: string; apiKey: string };

  beforeAll(async () => {
    s3 = kind === 's3' ? await startTestS3() : null;
    server = await startTestServer(
      { DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'files-')), FILE_MAX_BYTES: String(60 * MiB), FILE_QUOTA_BYTES: String(200 * MiB), ...(s3 ? { FILE_STORAGE_URL: s3.url } : {}) },
      { time: { clock } },
    );
    requester = await server.createUser();
    owner = await server.createUser();
    stranger = await server.createUser();
    agent = await startTestAgent();
    agentId = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Reader', endpoint: agent.url } })).body.data.id;
  }, 60_000);
  afterAll(async () => {
    await agent?.close();
    await server?.close();
    await s3?.close();
  });

  const fileUrl = (id: string) => `${server.url}/v1/files/${id}`;
  const download = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });
  const asKey = (key: string) => ({ authorization: `Bearer ${key}` });

  let big: { id: string; sha256: string; size: number };
  let pdf: { id: string; sha256: string };
  let delivery: ReceivedDelivery;
  let resultFile: { id: string; sha256: string };
  let taskId: string;

  it('uploads a 50 MiB raw body streamed and a PDF as multipart/form-data', async () => {
    const expected = await sha256Of(patternStream(BIG));
    const answer = await postStream(`${server.url}/v1/files?filename=${encodeURIComponent('../../big recording.bin')}`, patternStream(BIG), BIG, {
      ...asKey(requester.apiKey),
      'content-type': 'application/octet-stream',
    });
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({ filename: 'big recording.bin', mediaType: 'application/octet-stream', size: BIG, sha256: expected.sha256 });
    expect(answer.body.data.id).toMatch(/^fil_/);
    big = answer.body.data;

    const form = new FormData();
    form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'invoice.pdf');
    const res = await fetch(`${server.url}/v1/files`, { method: 'POST', headers: asKey(requester.apiKey), body: form });
    expect(res.status).toBe(201);
    pdf = ((await res.json()) as any).data;
    expect(pdf).toMatchObject({ filename: 'invoice.pdf', mediaType: 'application/pdf', size: PDF.length, sha256: (await sha256Of([PDF])).sha256 });
  }, 60_000);

  it('refuses a task referring to a file that is not the requester\'s, naming the path', async () => {
    const foreign = await server.api.post('/v1/tasks', { key: stranger.apiKey, body: { title: 't', description: 'd', agentId, input: { docs: [{ $file: pdf.id }] } } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'input.docs[0]' });
    const unknown = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId, input: { doc: { $file: 'fil_nothere' } } } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.field).toBe('input.doc');
  });

  it('delivers the files with signed links the agent reads without credentials', async () => {
    const input = { recording: { $file: big.id }, invoice: { $file: pdf.id }, language: 'en' };
    const created = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Transcribe', description: 'd', agentId, input } });
    expect(created.status).toBe(201);
    taskId = created.body.data.id;
    // The hash covers the files: each reference hashed with its file's sha256.
    const withHashes = { ...input, recording: { $file: big.id, sha256: big.sha256 }, invoice: { $file: pdf.id, sha256: pdf.sha256 } };
    expect(created.body.data.inputHash).toBe(evidenceHash(withHashes));

    delivery = (await agent.waitFor(1))[0]!;
    const files = (delivery!.body as any).files as Array<{ id: string; filename: string; mediaType: string; size: number; sha256: string; url: string }>;
    expect(files.map((f) => f.id).sort()).toEqual([big.id, pdf.id].sort());
    for (const file of files) {
      expect(file.url).toMatch(/\?expires=\d+&sig=/);
      const res = await download(file.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-type')).toBe(file.mediaType);
      const got = await sha256Of(res.body as unknown as AsyncIterable<Uint8Array>);
      expect(got).toEqual({ sha256: file.sha256, size: file.size });
    }
    // A PDF is downloaded, never shown in the page.
    const pdfLink = files.find((f) => f.id === pdf.id)!.url;
    expect((await download(pdfLink)).headers.get('content-disposition')).toMatch(/^attachment; filename="invoice.pdf"/);
    // A link is bound to its file.
    const stolen = pdfLink.replace(pdf.id, big.id);
    expect((await download(stolen)).status).toBe(403);
  }, 60_000);

  it('takes a result file on the task token and completes with it', async () => {
    const token = delivery.body.taskToken;
    const text = Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n');
    const wrong = await fetch(`${server.url}/v1/tasks/${taskId}/files?filename=t.vtt`, { method: 'POST', headers: { 'x-task-token': 'nope', 'content-type': 'text/vtt' }, body: text });
    expect(wrong.status).toBe(401);
    const res = await fetch(`${server.url}/v1/tasks/${taskId}/files?filename=transcript.vtt`, { method: 'POST', headers: { 'x-task-token': token, 'content-type': 'text/vtt' }, body: text });
    expect(res.status).toBe(201);
    resultFile = ((await res.json()) as any).data;
    // A file uploaded for this task cannot be used by another requester's task.
    const misuse = await server.api.post('/v1/tasks', { key: stranger.apiKey, body: { title: 't', description: 'd', agentId, input: { x: { $file: resultFile.id } } } });
    expect(misuse.status).toBe(400);

    const result = { transcript: { $file: resultFile.id }, words: 1 };
    expect((await callBack(delivery, { result })).status).toBe(200);
    const done = await waitForStatus(() => server.api.get(`/v1/tasks/${taskId}`, { key: requester.apiKey }).then((r) => r.body.data), ['completed']);
    expect(done.resultHash).toBe(evidenceHash({ transcript: { $file: resultFile.id, sha256: resultFile.sha256 }, words: 1 }));
    // Once the task is over, its own token is told apart from a wrong one: the task is finished (409).
    const late = await fetch(`${server.url}/v1/tasks/${taskId}/files?filename=late.vtt`, { method: 'POST', headers: { 'x-task-token': token, 'content-type': 'text/vtt' }, body: text });
    expect(late.status).toBe(409);
    const lateError = ((await late.json()) as any).error;
    expect(lateError.code).toBe('CONFLICT');
    expect(lateError.message).toContain('completed');
    const stillWrong = await fetch(`${server.url}/v1/tasks/${taskId}/files?filename=t.vtt`, { method: 'POST', headers: { 'x-task-token': 'nope', 'content-type': 'text/vtt' }, body: text });
    expect(stillWrong.status).toBe(401);
  });

  it('lets the requester read the result whole and by range, and nobody else', async () => {
    const whole = await download(fileUrl(resultFile.id), asKey(requester.apiKey));
    expect(whole.status).toBe(200);
    expect(await whole.text()).toContain('hello');
    // text/vtt is active content for a browser: downloaded.
    expect(whole.headers.get('content-disposition')).toMatch(/^attachment/);

    const part = await download(fileUrl(big.id), { ...asKey(requester.apiKey), range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${BIG}`);
    const bytes = Buffer.from(await part.arrayBuffer());
    expect(bytes.length).toBe(100);
    const full = Buffer.alloc(200);
    let offset = 0;
    for await (const c of patternStream(200)) offset += (c as Buffer).copy(full, offset);
    expect(bytes.equals(full.subarray(100, 200))).toBe(true);
    const outside = await download(fileUrl(big.id), { ...asKey(requester.apiKey), range: `bytes=${BIG}-` });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${BIG}`);

    // The agent's owner is a party of the task.
    expect((await download(fileUrl(pdf.id), asKey(owner.apiKey))).status).toBe(200);
    for (const id of [big.id, pdf.id, resultFile.id]) {
      expect((await download(fileUrl(id), asKey(stranger.apiKey))).status).toBe(404);
      expect((await download(fileUrl(id))).status).toBe(401);
    }
  });

  it('refuses a link once the task has expired', async () => {
    const link = (delivery.body as any).files[0].url as string;
    const before = await download(link);
    expect(before.status).toBe(200);
    await before.body?.cancel();
    clock.offsetMs = new Date(delivery.body.expiresAt).getTime() - Date.now() + 1000;
    try {
      const res = await download(link);
      expect(res.status).toBe(403);
      expect(((await res.json()) as any).error.message).toMatch(/expired/);
    } finally {
      clock.offsetMs = 0;
    }
  });

  it('refuses a file past FILE_MAX_BYTES with 413', async () => {
    const res = await postStream(`${server.url}/v1/files?filename=x`, patternStream(61 * MiB), 61 * MiB, asKey(requester.apiKey)).catch(() => null);
    // The server may close the connection while the body is still sent; when it answers, it is 413.
    if (res) {
      expect(res.status).toBe(413);
      expect(res.body.error.maxBytes).toBe(60 * MiB);
    }
  });

  it('leaves nothing behind from a killed upload after the sweep', async () => {
    const before = await storedKeys();
    await new Promise<void>((resolve) => {
      const req = http.request(`${server.url}/v1/files?filename=cut.bin`, { method: 'POST', headers: { ...asKey(requester.apiKey), 'content-length': String(20 * MiB) } });
      req.on('error', () => resolve());
      const body = patternStream(20 * MiB);
      let sent = 0;
      body.on('data', (chunk: Buffer) => {
        sent += chunk.length;
        if (sent > 6 * MiB) {
          body.destroy();
          req.destroy();
          resolve();
        } else req.write(chunk);
      });
    });
    // The server notices the cut and undoes the write; should it have died instead, the sweep does.
    clock.offsetMs = 2 * 60 * 60 * 1000;
    try {
      await until('no upload in progress', async () => {
        await server.app.services.files.sweep();
        const open = await server.sql.selectFrom('files').select('id').where('status', '=', 'uploading').execute();
        return open.length === 0;
      }, 20_000);
    } finally {
      clock.offsetMs = 0;
    }
    expect(await storedKeys()).toEqual(before);
    const rows = await server.sql.selectFrom('files').select('storageKey').execute();
    expect(new Set(rows.map((r) => r.storageKey))).toEqual(new Set(before));
    if (kind === 'local') expect(await readdir(path.join(server.app.services.deps.config.dataDir, 'files', '.tmp')).catch(() => [])).toEqual([]);
  }, 60_000);

  it('removes the files of a task finished longer ago than FILE_RETENTION_DAYS', async () => {
    clock.offsetMs = 29 * 24 * 60 * 60 * 1000;
    try {
      expect((await server.app.services.files.sweep()).retired).toBe(0);
      clock.offsetMs = 31 * 24 * 60 * 60 * 1000;
      expect((await server.app.services.files.sweep()).retired).toBe(3);
    } finally {
      clock.offsetMs = 0;
    }
    expect((await download(fileUrl(pdf.id), asKey(requester.apiKey))).status).toBe(404);
    expect(await storedKeys()).toEqual([]);
  });

  async function storedKeys(): Promise<string[]> {
    const keys: string[] = [];
    for await (const key of server.app.services.files.storage.list()) keys.push(key);
    return keys.sort();
  }
});
