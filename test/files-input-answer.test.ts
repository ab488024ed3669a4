// A file in the requester's answer to an agent's input request: {"$file": id} in the answer is checked
// like a task's input file (the requester's own), linked to the task, hashed into the answer's
// inputHash, and delivered to the agent with a signed link it reads without credentials.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { evidenceHash } from '../src/services/evidence.js';
import { callBack } from './support/agent.js';
import { describe, expect, testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { until } from './support/wait.js';

const test = testWith({ serverEnv: { DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'input-files-')) }, agentProfile: { name: 'Asker' } });

describe('a file in the answer to an input request', () => {
  const upload = async (server: TestServer, key: string, text: string) => {
    const res = await fetch(`${server.url}/v1/files?filename=answer.txt`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' }, body: text });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: { id: string; sha256: string } }).data;
  };

  test('is checked, linked, hashed and delivered with a signed link', async ({ server, requester, agent: { id: agentId, http: agent } }) => {
    const stranger = await server.createUser();
    const taskId = (await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Read it', description: 'd', agentId } })).body.data.id as string;
    const delivery = await until('the delivery', () => agent.received.find((d) => d.body.taskId === taskId));
    const inputSchema = { type: 'object', required: ['doc'], properties: { doc: { type: 'string', format: 'binary' } } };
    expect((await callBack(delivery, { inputRequired: { message: 'Send the document', inputSchema } })).status).toBe(200);

    // Not the requester's file: refused naming the field, and the task still waits.
    const foreign = await upload(server, stranger.apiKey, 'not yours');
    const refused = await server.api.post(`/v1/tasks/${taskId}/input`, { key: requester.apiKey, body: { input: { doc: { $file: foreign.id } } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'input.doc' });

    const mine = await upload(server, requester.apiKey, 'the document');
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
