// Agents' inputSchema is owner-supplied: it must not stall the server, break other owners' agents, reach
// out to remote references, or be compiled again for every task.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputSchemaCompileCount, MAX_BRANCHES, MAX_CHECK_WORK, MAX_INPUT_SCHEMA_BYTES, MAX_INPUT_SCHEMA_DEPTH, MAX_UNIQUE_ITEMS } from '../src/services/input-schema.js';
import { testWith, type TestUser } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let server: TestServer;
let owner: TestUser;
let other: TestUser;
let requester: TestUser;

// Its own DATA_DIR: the file field's test stores an upload.
const test = testWith({ serverEnv: { DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'input-schema-')) } });

test.beforeAll(async ({ server: s, owner: o, requester: r }) => {
  [server, owner, requester] = [s, o, r];
  other = await server.createUser();
});

let agents = 0;
async function createAgent(key: string, inputSchema: unknown) {
  return server.api.post('/v1/agents', {
    key,
    body: { name: `Schema agent ${++agents}`, endpoint: 'http://127.0.0.1:9/tasks', inputSchema: typeof inputSchema === 'string' ? inputSchema : JSON.stringify(inputSchema) },
  });
}

const createTask = (agentId: string, input: Record<string, unknown>) =>
  server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Check input', description: 'Schema check', agentId, input } });

describe('patterns run on a linear-time engine', () => {
  it('answers a catastrophic-backtracking pattern at once, with a 400 naming input', async () => {
    const agent = await createAgent(owner.apiKey, { type: 'object', properties: { s: { type: 'string', pattern: '^((a+)+)+$' } } });
    expect(agent.status).toBe(201);
    // With a backtracking engine this input blocks the event loop for minutes (each extra "a" doubles it).
    const res = await createTask(agent.body.data.id, { s: `${'a'.repeat(28)}!` });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'input' });
    expect((await createTask(agent.body.data.id, { s: 'aaaa' })).status).toBe(201);
  });

  it.each([['(?=a)b'], ['(a)\\1'], ['(?<!x)y']])('refuses the pattern %s, which needs backtracking, with a 400 naming inputSchema', async (pattern) => {
    const res = await createAgent(owner.apiKey, { type: 'string', pattern });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'inputSchema' });
    expect(res.body.error.message).toMatch(/pattern .* is not supported/);
  });

  it('applies the same engine to patternProperties', async () => {
    const res = await createAgent(owner.apiKey, { type: 'object', patternProperties: { '^(?!x)': { type: 'string' } } });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('inputSchema');
  });
});

describe('$id does not leak between agents', () => {
  it('lets two owners use the same $id, each agent checked against its own schema, task after task', async () => {
    const first = await createAgent(owner.apiKey, { $id: 'https://example.com/shared.json', type: 'object', required: ['a'] });
    const second = await createAgent(other.apiKey, { $id: 'https://example.com/shared.json', type: 'object', required: ['b'] });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    for (let i = 0; i < 3; i++) {
      expect((await createTask(first.body.data.id, { a: 1 })).status).toBe(201);
      expect((await createTask(second.body.data.id, { b: 1 })).status).toBe(201);
      const wrong = await createTask(second.body.data.id, { a: 1 });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.field).toBe('input');
    }
  });
});

describe('bounds on the schema itself', () => {
  it('refuses a remote $ref', async () => {
    const res = await createAgent(owner.apiKey, { type: 'object', properties: { x: { $ref: 'https://example.com/schema.json' } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'inputSchema' });
    expect(res.body.error.message).toMatch(/only references inside the schema/);
  });

  it('accepts local references', async () => {
    const res = await createAgent(owner.apiKey, { definitions: { t: { type: 'string' } }, type: 'object', properties: { x: { $ref: '#/definitions/t' } } });
    expect(res.status).toBe(201);
  });

  it(`refuses a schema nested deeper than ${MAX_INPUT_SCHEMA_DEPTH} levels`, async () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < MAX_INPUT_SCHEMA_DEPTH; i++) schema = { type: 'object', properties: { x: schema } };
    const res = await createAgent(owner.apiKey, schema);
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('inputSchema');
    expect(res.body.error.message).toMatch(/nested more than/);
  });

  it(`refuses a schema over ${MAX_INPUT_SCHEMA_BYTES} bytes, counted in bytes`, async () => {
    // Under the limit in characters, over it in UTF-8 bytes.
    const description = 'é'.repeat(MAX_INPUT_SCHEMA_BYTES / 2);
    const res = await createAgent(owner.apiKey, { type: 'object', description });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('inputSchema');
  });
});

describe('bounds on the work of checking an input', () => {
  const refused = async (schema: unknown, message: RegExp) => {
    const res = await createAgent(owner.apiKey, schema);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'inputSchema' });
    expect(res.body.error.message).toMatch(message);
  };

  it('refuses references that multiply the work (two anyOf branches to the same definition, 22 levels: 2^22 checks)', async () => {
    const definitions: Record<string, unknown> = { d0: { type: 'integer', maximum: 0 } };
    for (let i = 1; i <= 22; i++) definitions[`d${i}`] = { anyOf: [{ $ref: `#/definitions/d${i - 1}`, minimum: 5 }, { $ref: `#/definitions/d${i - 1}`, minimum: 6 }] };
    await refused({ definitions, properties: { x: { $ref: '#/definitions/d22' } } }, /too large once its references are expanded/);
  });

  it('refuses recursive references', async () => {
    await refused({ items: { $ref: '#' } }, /refers to itself/);
    await refused({ definitions: { a: { properties: { b: { $ref: '#/definitions/a' } } } }, $ref: '#/definitions/a' }, /refers to itself/);
  });

  it(`refuses more than ${MAX_BRANCHES} anyOf/oneOf/allOf entries`, async () => {
    await refused({ anyOf: Array.from({ length: MAX_BRANCHES + 1 }, (_, i) => ({ const: i })) }, /anyOf may have at most/);
  });

  it('refuses uniqueItems over object items without a small maxItems (pairwise comparison)', async () => {
    await refused({ type: 'array', uniqueItems: true }, /uniqueItems needs/);
    expect((await createAgent(owner.apiKey, { type: 'array', uniqueItems: true, items: { type: 'string' } })).status).toBe(201);
    expect((await createAgent(owner.apiKey, { type: 'array', uniqueItems: true, maxItems: MAX_UNIQUE_ITEMS })).status).toBe(201);
  });

  it(`refuses an input whose check would exceed ${MAX_CHECK_WORK} steps, naming input`, async () => {
    const branches = Array.from({ length: MAX_BRANCHES - 1 }, (_, i) => ({ type: 'object', required: [`k${i}`] }));
    const agent = await createAgent(owner.apiKey, { type: 'object', properties: { l: { type: 'array', items: { anyOf: [...branches, { type: 'integer' }] } } } });
    expect(agent.status).toBe(201);
    const res = await createTask(agent.body.data.id, { l: Array.from({ length: 100_000 }, () => 1) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'input' });
    expect(res.body.error.message).toMatch(/too large to check/);
    expect((await createTask(agent.body.data.id, { l: [1, 2, 3] })).status).toBe(201);
  });
});

describe('file fields', () => {
  it('takes a file reference for "format": "binary", and refuses text in its place', async () => {
    const agent = await createAgent(owner.apiKey, { type: 'object', required: ['scan'], properties: { scan: { type: 'string', format: 'binary' } } });
    expect(agent.status).toBe(201);
    const text = await createTask(agent.body.data.id, { scan: 'not a file' });
    expect(text.status).toBe(400);
    expect(text.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'input' });
    expect(text.body.error.message).toContain('/scan must be a file ({"$file": "fil_…"})');
    const upload = await fetch(`${server.url}/v1/files?filename=scan.png`, { method: 'POST', headers: { authorization: `Bearer ${requester.apiKey}`, 'content-type': 'image/png' }, body: 'png bytes' });
    const file = ((await upload.json()) as { data: { id: string } }).data;
    expect((await createTask(agent.body.data.id, { scan: { $file: file.id } })).status).toBe(201);
  });
});

describe('compiling', () => {
  it('compiles a schema once per agent version, not once per task', async () => {
    const before = inputSchemaCompileCount();
    const agent = await createAgent(owner.apiKey, { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } });
    expect(agent.status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await createTask(agent.body.data.id, { n: i })).status).toBe(201);
    expect((await createTask(agent.body.data.id, { n: 'x' })).status).toBe(400);
    expect(inputSchemaCompileCount() - before).toBe(1);

    const updated = await server.api.put(`/v1/agents/${agent.body.data.id}`, {
      key: owner.apiKey,
      body: { inputSchema: JSON.stringify({ type: 'object', required: ['m'] }) },
    });
    expect(updated.status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await createTask(agent.body.data.id, { m: i })).status).toBe(201);
    expect(inputSchemaCompileCount() - before).toBe(2);
  });
});
