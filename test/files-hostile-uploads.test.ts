// Uploads that no service may die of or cry about (issue 46, items 1 and 11): a multipart body whose file
// part never gets its closing boundary, sent without credentials, with a forged link, with a junk task
// token and with a good key, is refused in words and the service answers the next request; a client that
// hangs up midway is a debug line, not an error with a stack, and leaves no unfinished upload behind.
// The requests are the fuzz's own (scripts/fuzz-uploads.ts), written on a raw socket.
import { describe, expect, it } from 'vitest';
import { sendRaw, type RawRequest } from '../scripts/fuzz-uploads.js';
import { logLines, testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { until } from './support/wait.js';

interface Line {
  level: number;
  msg: string;
  [key: string]: unknown;
}
const { lines, stream: capture } = logLines<Line>();
const errorLines = () => lines.filter((l) => l.level >= 50);

let server: TestServer;
let user: { id: string; apiKey: string };

const test = testWith({ serverEnv: { LOG_LEVEL: 'debug' }, serverLog: capture });

test.beforeAll(async ({ server: s }) => {
  server = s;
  user = await server.createUser();
});

// The body of issue 46: the file part's closing boundary never comes.
const UNTERMINATED = '--zz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc';
const unterminated = (path: string, headers: Record<string, string>): RawRequest => ({
  method: 'POST',
  path,
  headers: { ...headers, 'content-type': 'multipart/form-data; boundary=zz', 'content-length': String(UNTERMINATED.length), connection: 'close' },
  chunks: [Buffer.from(UNTERMINATED)],
});

const stillServes = async () => {
  const health = await fetch(`${server.url}/healthz`);
  expect(health.status).toBe(200);
};

describe('a multipart file part that never ends', () => {
  it('with a junk task token: 401, and the service lives on', async () => {
    const answer = await sendRaw(server.url, unterminated('/v1/tasks/tsk_0123456789abcdef/files', { 'x-task-token': 'junk' }));
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.text).error.code).toBe('UNAUTHENTICATED');
    await stillServes();
  });

  it('with a forged upload link: 403, and the service lives on', async () => {
    const answer = await sendRaw(server.url, unterminated('/v1/files?uploader=usr_x&expires=1&sig=AAAA', {}));
    expect(answer.status).toBe(403);
    await stillServes();
  });

  it('with a good key: 400 naming the body, nothing kept, no error logged', async () => {
    const answer = await sendRaw(server.url, unterminated('/v1/files', { authorization: `Bearer ${user.apiKey}` }));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).error).toMatchObject({ code: 'INVALID_INPUT', field: 'body' });
    await stillServes();
    // The row written before the bytes is removed once the body fails.
    await until('the unfinished upload removed', async () => (await server.sql.selectFrom('files').select('id').where('ownerId', '=', user.id).execute()).length === 0);
    expect(errorLines()).toEqual([]);
  });

  it('with no credentials at all: 401, and the service lives on', async () => {
    const answer = await sendRaw(server.url, unterminated('/v1/files', {}));
    expect(answer.status).toBe(401);
    await stillServes();
  });
});

describe('a client that hangs up midway', () => {
  const settled = async (reqId: string) => {
    // The upload's handler is done when it logged its end: a debug line, or (the bug) an error.
    await until('the hung-up upload handled', () => lines.find((l) => (l.reqId === reqId && l.msg === 'client went away') || l.level >= 50));
  };

  it('with a raw body: a debug line, no error, no unfinished upload left', async () => {
    const reqId = 'hangup-raw-1';
    const answer = await sendRaw(server.url, {
      method: 'POST',
      path: '/v1/files?filename=cut.bin',
      headers: { authorization: `Bearer ${user.apiKey}`, 'x-request-id': reqId, 'content-type': 'application/octet-stream', 'content-length': '100000' },
      chunks: [Buffer.alloc(5000, 1)],
      hangUp: true,
    });
    expect(answer.status).toBe(0);
    await settled(reqId);
    expect(errorLines()).toEqual([]);
    expect(lines.find((l) => l.reqId === reqId && l.msg === 'client went away')).toMatchObject({ level: 20 });
    await until('the unfinished upload removed', async () => (await server.sql.selectFrom('files').select('id').where('ownerId', '=', user.id).execute()).length === 0);
    await stillServes();
  });

  it('with a multipart body: a debug line, no error, no unfinished upload left', async () => {
    const reqId = 'hangup-multipart-1';
    await sendRaw(server.url, {
      method: 'POST',
      path: '/v1/files',
      headers: { authorization: `Bearer ${user.apiKey}`, 'x-request-id': reqId, 'content-type': 'multipart/form-data; boundary=zz', 'content-length': '100000' },
      chunks: [Buffer.from(`--zz\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n${'x'.repeat(5000)}`)],
      hangUp: true,
    });
    await settled(reqId);
    expect(errorLines()).toEqual([]);
    await until('the unfinished upload removed', async () => (await server.sql.selectFrom('files').select('id').where('ownerId', '=', user.id).execute()).length === 0);
    await stillServes();
  });
});
