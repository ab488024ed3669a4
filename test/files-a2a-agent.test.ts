// Files between the service and an agent built with @a2a-js/sdk's server: the task's input files reach it
// as url parts (signed links it downloads without credentials, with name, type and hash), and the file
// parts of its artifacts (inline bytes and urls on its own server) become our files, the task's result
// files; a file that cannot be fetched or is too big fails the task with a plain reason.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TaskState, type Part, type Task } from '@a2a-js/sdk';
import type { ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { afterAll, describe, expect, it } from 'vitest';
import { guardedDownload } from '../src/delivery/guarded-request.js';
import { startSdkAgent, type SdkAgent } from './support/a2a-agent.js';
import { waitForStatus } from './support/agent.js';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { until } from './support/wait.js';

let server: TestServer;
let owner: { id: string; apiKey: string };
let requester: { id: string; apiKey: string };
let a2a: SdkAgent;
let agentId: string;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Download {
  filename: string;
  mediaType: string;
  metadata: Record<string, unknown> | undefined;
  url: string;
  status: number;
  size: number;
  sha256: string;
}
// A server of the agent's whose file answers only when the test lets it (a slow or hostile artifact url).
const slow = { url: '', asked: 0, release: () => {}, server: null as http.Server | null };

// What the agent found behind each url part, by our task id.
const downloads = new Map<string, Download[]>();

const TRANSCRIPT = 'WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n';
const filePart = (content: Part['content'], filename: string, mediaType: string): Part => ({ content, metadata: undefined, filename, mediaType });

// The artifact parts the agent answers with, by the mode in the task's input.
function partsFor(mode: unknown): Part[] {
  const own = (p: string) => `${a2a.url}${p}`;
  if (mode === 'too-big') return [filePart({ $case: 'url', value: own('/out/big.bin') }, 'big.bin', 'application/octet-stream')];
  if (mode === 'missing') return [filePart({ $case: 'url', value: own('/out/nothing-here') }, 'gone.pdf', 'application/pdf')];
  if (mode === 'slow') {
    return [
      filePart({ $case: 'raw', value: Buffer.from('quick') }, 'quick.txt', 'text/plain'),
      filePart({ $case: 'url', value: slow.url }, 'late.txt', 'text/plain'),
    ];
  }
  return [
    { content: { $case: 'text', value: 'Two files' }, metadata: undefined, filename: '', mediaType: '' },
    filePart({ $case: 'raw', value: Buffer.from('a summary of the invoice') }, 'summary.txt', 'text/plain'),
    filePart({ $case: 'url', value: own('/out/transcript.vtt') }, 'transcript.vtt', 'text/vtt'),
  ];
}

async function behaviour(ctx: RequestContext, bus: ExecutionEventBus) {
  const ourId = String(ctx.userMessage.metadata?.marketplaceTaskId);
  const seen: Download[] = [];
  for (const part of ctx.userMessage.parts) {
    if (part.content?.$case !== 'url') continue;
    // A plain GET, no credentials: the link is all an agent needs.
    const res = await fetch(part.content.value);
    const bytes = Buffer.from(await res.arrayBuffer());
    seen.push({ filename: part.filename, mediaType: part.mediaType, metadata: part.metadata, url: part.content.value, status: res.status, size: bytes.length, sha256: sha256(bytes) });
  }
  downloads.set(ourId, seen);
  const data = ctx.userMessage.parts.find((p) => p.content?.$case === 'data')?.content?.value as { mode?: unknown } | undefined;
  const status = (state: TaskState) => ({ state, message: undefined, timestamp: new Date().toISOString() });
  bus.publish({
    kind: 'task',
    data: {
      id: ctx.taskId,
      contextId: ctx.contextId,
      status: status(TaskState.TASK_STATE_COMPLETED),
      artifacts: [{ artifactId: 'out', name: 'transcription', description: '', parts: partsFor(data?.mode), metadata: undefined, extensions: [] }],
      history: [],
      metadata: undefined,
    },
  });
  bus.finished();
}

const test = testWith({ serverEnv: { DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'files-a2a-')), FILE_MAX_BYTES: '4000', A2A_BLOCKING_WAIT_MS: '15000' } });

test.beforeAll(async ({ server: s, owner: o, requester: r }) => {
  [server, owner, requester] = [s, o, r];
  a2a = await startSdkAgent({ name: 'Scribe Swift', pushNotifications: true });
  a2a.behave(behaviour);
  a2a.serve('/out/transcript.vtt', TRANSCRIPT);
  a2a.serve('/out/big.bin', 'x'.repeat(5000));
  const held = new Promise<void>((resolve) => (slow.release = resolve));
  slow.server = http.createServer((_req, res) => {
    slow.asked += 1;
    void held.then(() => res.end('late bytes'));
  });
  await new Promise<void>((resolve) => slow.server!.listen(0, '127.0.0.1', resolve));
  slow.url = `http://127.0.0.1:${(slow.server.address() as AddressInfo).port}/late.txt`;
  const imported = await server.api.post('/v1/agents/import', { key: owner.apiKey, body: { cardUrl: a2a.cardUrl } });
  expect(imported.status).toBe(201);
  agentId = imported.body.data.id;
}, 60_000);
afterAll(async () => {
  slow.release();
  slow.server?.closeAllConnections();
  slow.server?.close();
  await a2a?.close();
});

async function upload(body: Buffer | string, filename: string, type: string) {
  const res = await fetch(`${server.url}/v1/files?filename=${filename}`, { method: 'POST', headers: { authorization: `Bearer ${requester.apiKey}`, 'content-type': type }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  expect(res.status).toBe(201);
  return ((await res.json()) as any).data as { id: string; sha256: string; size: number };
}

const create = async (input: Record<string, unknown>) => {
  const res = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Transcribe', description: 'The recording', agentId, input } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
};
const get = async (id: string) => (await server.api.get(`/v1/tasks/${id}`, { key: requester.apiKey })).body.data;
const download = async (id: string) => {
  const res = await fetch(`${server.url}/v1/files/${id}`, { headers: { authorization: `Bearer ${requester.apiKey}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
};

describe('files with an A2A agent', () => {
  it('sends the input files as url parts the agent downloads, and keeps its artifact files as the result files', async () => {
    const pdf = await upload(Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1500, 7)]), 'invoice.pdf', 'application/pdf');
    const audio = await upload(Buffer.alloc(900, 3), 'call.ogg', 'audio/ogg');
    const t = await create({ invoice: { $file: pdf.id }, recordings: [{ $file: audio.id }] });
    const done = await waitForStatus(() => get(t.id), ['completed']);

    const seen = downloads.get(t.id)!;
    expect(seen.map((d) => d.filename).sort()).toEqual(['call.ogg', 'invoice.pdf']);
    for (const [file, name, type] of [[pdf, 'invoice.pdf', 'application/pdf'], [audio, 'call.ogg', 'audio/ogg']] as const) {
      const got = seen.find((d) => d.filename === name)!;
      expect(got).toMatchObject({ mediaType: type, status: 200, size: file.size, sha256: file.sha256 });
      expect(got.metadata).toEqual({ fileId: file.id, size: file.size, sha256: file.sha256 });
      expect(got.url).toMatch(new RegExp(`^http://[^/]+/v1/files/${file.id}\\?expires=\\d+&sig=`));
    }

    // The artifact's file parts are references to our files now; the other parts are as the agent sent them.
    const parts = done.result.artifacts[0].parts as Array<Record<string, unknown>>;
    expect(parts[0]).toEqual({ text: 'Two files' });
    expect(parts[1]).toMatchObject({ $file: expect.stringMatching(/^fil_/), filename: 'summary.txt', mediaType: 'text/plain' });
    expect(parts[2]).toMatchObject({ $file: expect.stringMatching(/^fil_/), filename: 'transcript.vtt', mediaType: 'text/vtt' });
    expect(parts[1]).not.toHaveProperty('raw');
    expect(parts[2]).not.toHaveProperty('url');
    const summary = await download(parts[1]!.$file as string);
    expect(summary.toString()).toBe('a summary of the invoice');
    expect((await download(parts[2]!.$file as string)).toString()).toBe(TRANSCRIPT);

    // Kept for the task, counted against the agent's owner, hashed, and linked as the result's files.
    const rows = await server.sql.selectFrom('files').select(['id', 'ownerId', 'taskId', 'sha256', 'status']).where('taskId', '=', t.id).orderBy('filename').execute();
    expect(rows).toEqual([
      { id: parts[1]!.$file, ownerId: owner.id, taskId: t.id, sha256: sha256(summary), status: 'stored' },
      { id: parts[2]!.$file, ownerId: owner.id, taskId: t.id, sha256: sha256(Buffer.from(TRANSCRIPT)), status: 'stored' },
    ]);
    const linked = await server.sql.selectFrom('taskFiles').select(['fileId', 'role']).where('taskId', '=', t.id).where('role', '=', 'result').execute();
    expect(linked.map((l) => l.fileId).sort()).toEqual([parts[1]!.$file, parts[2]!.$file].sort());

    // Toward an A2A client the kept files are url parts again, to this service.
    const fetchImpl: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${requester.apiKey}`);
      return fetch(input, { ...init, headers });
    };
    const client = await new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl })] })).createFromUrl(
      `${server.url}/a2a/agents/scribe-swift/.well-known/agent-card.json`,
      '',
    );
    const relayed = (await client.getTask({ tenant: '', id: t.id, historyLength: 0 })) as Task;
    const urls = relayed.artifacts[0]!.parts.filter((p) => p.content?.$case === 'url');
    expect(urls.map((p) => [p.filename, p.mediaType, new URL(p.content!.value as string).pathname])).toEqual([
      ['summary.txt', 'text/plain', `/v1/files/${parts[1]!.$file}`],
      ['transcript.vtt', 'text/vtt', `/v1/files/${parts[2]!.$file}`],
    ]);
  });

  it('fails the task with the reason when an artifact file is larger than FILE_MAX_BYTES, and keeps none of it', async () => {
    const t = await create({ mode: 'too-big' });
    const failed = await waitForStatus(() => get(t.id), ['failed']);
    expect(failed.error).toMatch(/^the agent's file "big\.bin" \(artifacts\[0\]\.parts\[0\]\) could not be kept: the file is larger than the 4000 bytes/);
    expect(await server.sql.selectFrom('files').select('id').where('taskId', '=', t.id).execute()).toEqual([]);
  });

  it('fails the task with the reason when an artifact url does not answer with the file', async () => {
    const t = await create({ mode: 'missing' });
    const failed = await waitForStatus(() => get(t.id), ['failed']);
    expect(failed.error).toBe(`the agent's file "gone.pdf" (artifacts[0].parts[0]) could not be kept: the agent's server answered 404`);
  });

  it('fetches artifact urls in a job: a slow url holds no request open, and each part is kept once', async () => {
    const t = await create({ mode: 'slow' });
    await until('the slow url asked', () => slow.asked > 0);
    // The download runs in the job a2a.keep-artifacts; the agent's reply and push were answered without
    // it (the delivery's attempt is recorded, the task still works).
    const running = await server.sql
      .selectFrom('graphile_worker.jobs' as never)
      .select(['task_identifier as name', 'locked_at as lockedAt'] as never)
      .where('task_identifier' as never, '=', 'a2a.keep-artifacts' as never)
      .execute();
    expect(running).toEqual([expect.objectContaining({ name: 'a2a.keep-artifacts', lockedAt: expect.any(Date) })]);
    const attempts = await server.sql.selectFrom('deliveries').select(['status']).where('taskId', '=', t.id).execute();
    expect(attempts.map((a) => a.status)).toContain('succeeded');
    expect((await get(t.id)).status).toBe('in_progress');

    slow.release();
    const done = await waitForStatus(() => get(t.id), ['completed']);
    const parts = done.result.artifacts[0].parts as Array<Record<string, unknown>>;
    expect((await download(parts[1]!.$file as string)).toString()).toBe('late bytes');
    // One file per part, whichever of the reply and the push came first.
    const rows = await server.sql.selectFrom('files').select(['id', 'artifactPart']).where('taskId', '=', t.id).orderBy('artifactPart').execute();
    expect(rows).toEqual([
      { id: parts[0]!.$file, artifactPart: 'artifacts[0].parts[0]' },
      { id: parts[1]!.$file, artifactPart: 'artifacts[0].parts[1]' },
    ]);
  });

  it('keeps an artifact part once when two runs keep it at the same time, and fetches nothing for a part kept already', async () => {
    const t = await create({});
    await waitForStatus(() => get(t.id), ['completed']);
    const files = server.app.services.files;
    let fetched = 0;
    const fetchUpload = async () => {
      fetched += 1;
      return { filename: 'twice.txt', mediaType: 'text/plain', declaredSize: 5, body: Readable.from([Buffer.from('twice')]) };
    };
    const part = 'artifacts[7].parts[0]';
    const both = await Promise.allSettled([files.keepArtifactPart(owner.id, t.id, part, fetchUpload), files.keepArtifactPart(owner.id, t.id, part, fetchUpload)]);
    const stored = both.filter((r) => r.status === 'fulfilled').map((r) => r.value.id);
    // The loser either found the winner's file stored, or was told another run is storing it.
    for (const r of both) if (r.status === 'rejected') expect((r.reason as Error).name).toBe('PartInFlightError');
    expect(new Set(stored).size).toBe(1);
    const again = await files.keepArtifactPart(owner.id, t.id, part, fetchUpload);
    expect(again.id).toBe(stored[0]);
    expect(await server.sql.selectFrom('files').select('id').where('taskId', '=', t.id).where('artifactPart', '=', part).execute()).toHaveLength(1);
    expect(fetched).toBeLessThanOrEqual(2);
  });

  it('fetches an artifact url under the address policy of agent endpoints', async () => {
    // The service's own network, refused before any connection when private endpoints are not allowed.
    const refused = await guardedDownload({ url: `${a2a.url}/out/transcript.vtt`, timeoutMs: 2000, allowPrivate: false });
    expect(refused).toEqual({ kind: 'error', error: expect.stringMatching(/^forbidden address 127\.0\.0\.1/) });
    const local = await guardedDownload({ url: 'http://localhost:1/x', timeoutMs: 2000, allowPrivate: false });
    expect(local).toEqual({ kind: 'error', error: 'forbidden host localhost: local name' });
  });
});
