// A file in the requester's answer to an agent's input request: {"$file": id} in the answer is checked
// like a task's input file (the requester's own), linked to the task, hashed into the answer's
// inputHash, and delivered to the agent with a signed link it reads without credentials.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidenceHash } from '../src/services/evidence.js';
import { callBack, startTestAgent, type TestAgent } from './support/agent.js';
import { startTestServer, type TestServer } from './support/server.js';
import { until } from './support/wait.js';

describe('a file in the answer to an input request', () => {
  let server: TestServer;
  let agent: TestAgent;
  beforeAll(async () => {
    server = await startTestServer({ DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'input-files-')) });
    agent = await startTestAgent();
  }, 60_000);
  afterAll(async () => {
    await agent?.close();
    await server?.close();
  });

  const upload = async (key: string, text: string) => {
    const res = await fetch(`${server.url}/v1/files?filename=answer.txt`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' }, body: text });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: { id: string; sha256: string } }).data;
  };

  it('is checked, linked, hashed and delivered with a signed link', async () => {
    const owner = await server.createUser();
    const requester = await server.createUser();
    const stranger = await server.createUser();
    const agentId = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Asker', endpoint: agent.url } })).body.data.id as string;
    const taskId = (await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Read it', description: 'd', agentId } })).body.data.id as string;
    const delivery = await until('the delivery', () => agent.received.find((d) => d.body.taskId === taskId));
    const inputSchema = { type: 'object', required: ['doc'], properties: { doc: { type: 'string', format: 'binary' } } };
    expect((await callBack(delivery, { inputRequired: { message: 'Send the document', inputSchema } })).status).toBe(200);

    // Not the requester's file: refused naming the field, and the task still waits.
    const foreign = await upload(stranger.apiKey, 'not yours');
    const refused = await server.api.post(`/v1/tasks/${taskId}/input`, { key: requester.apiKey, body: { input: { doc: { $file: foreign.id } } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'input.doc' });

    const mine = await upload(requester.apiKey, 'the document');
    const answered = await server.api.post(`/v1/tasks/${taskId}/input`, { key: requester.apiKey, body: { input: { doc: { $file: mine.id } } } });
    expect(answered.status).toBe(200);

    const answer = await until('the answer delivered', () => agent.received.find((d) => d.body.taskId === taskId && (d.body as { type?: string }).type === 'task.input'));
    const body = answer.body as unknown as { input: unknown; inputHash: string; files: Array<{ id: string; sha256: string; url: string }> };
    expect(body.input).toEqual({ doc: { $file: mine.id } });
    expect(body.inputHash).toBe(evidenceHash({ doc: { $file: mine.id, sha256: mine.sha256 } }));
    expect(body.files.map((f) => f.id)).toEqual([mine.id]);
    const fetched = await fetch(body.files[0]!.url);
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe('the document');
    // Linked to the task as one of its input files (kept, and swept, with the task).
    const linked = await server.sql.selectFrom('taskFiles').select(['fileId', 'role']).where('taskId', '=', taskId).execute();
    expect(linked).toEqual([{ fileId: mine.id, role: 'input' }]);
  }, 60_000);
});
