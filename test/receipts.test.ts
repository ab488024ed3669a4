// Receipts over real HTTP: a finished task's receipt is a compact JWS that `jose` verifies against the
// published JWKS, over RFC 8785 canonical JSON of ids, hashes, status, settlement and times (never the
// input or result); POST /v1/receipts/verify answers anyone; any byte changed, or the key retired after a
// rotation's overlap, and it no longer verifies.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactVerify, createLocalJWKSet, createRemoteJWKSet, decodeProtectedHeader } from 'jose';
import { startTestServer, type TestServer } from './support/server.js';
import { canonicalJson } from '../src/services/receipts/canonical-json.js';

const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
const serverKey = randomBytes(32);
let server: TestServer;
let rotated: TestServer;
let requester: { apiKey: string; id: string };
let owner: { apiKey: string };

beforeAll(async () => {
  server = await startTestServer({}, { time: { clock }, serverKey });
  // The same service after a key rotation: version 2 signs, version 1 stays published for an hour.
  rotated = await startTestServer(
    { RECEIPT_KEY_VERSION: '2', RECEIPT_PREVIOUS_KEY_UNTIL: new Date(Date.now() + 3600_000).toISOString() },
    { db: server.db, time: { clock }, serverKey },
  );
  requester = await server.createUser();
  owner = await server.createUser();
});
afterAll(async () => {
  await rotated?.close();
  await server?.close();
});

// A task taken by a pulling agent and completed on its callback.
async function finishedTask(input: Record<string, unknown>, result: Record<string, unknown>) {
  const agentId = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Receipts', deliveryMode: 'pull' } })).body.data.id;
  const task = (await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', input, agentId } })).body.data;
  expect(task.receipt).toBeNull();
  const [claimed] = (await server.api.post(`/v1/agents/${agentId}/tasks/claim`, { key: owner.apiKey, body: { waitSeconds: 0 } })).body.data;
  expect((await server.api.get(`/v1/tasks/${task.id}`, { key: requester.apiKey })).body.data.receipt).toBeNull();
  expect((await server.api.post(`/v1/tasks/${task.id}/callback`, { body: { taskToken: claimed.taskToken, result } })).status).toBe(200);
  const done = (await server.api.get(`/v1/tasks/${task.id}`, { key: requester.apiKey })).body.data;
  return { task: done, agentId };
}

const verifyAt = (s: TestServer, receipt: string) => s.api.post('/v1/receipts/verify', { body: { receipt } }).then((r) => r.body);

describe('receipts', () => {
  it('signs a finished task over canonical JSON, verifiable with jose against the JWKS, without its input or result', async () => {
    const { task, agentId } = await finishedTask({ secret: 'the requester’s words' }, { answer: 'the agent’s words' });
    expect(task.status).toBe('completed');
    const receipt = task.receipt as string;
    expect(receipt.split('.')).toHaveLength(3);
    const header = decodeProtectedHeader(receipt);
    expect(header).toMatchObject({ alg: 'EdDSA', kid: expect.stringMatching(/^receipt-v1-/) });

    const jwks = createRemoteJWKSet(new URL(`${server.url}/.well-known/jwks.json`));
    const { payload } = await compactVerify(receipt, jwks);
    const text = new TextDecoder().decode(payload);
    const claims = JSON.parse(text);
    expect(canonicalJson(claims)).toBe(text);
    expect(claims).toMatchObject({
      taskId: task.id,
      agentId,
      requesterId: requester.id,
      status: 'completed',
      inputHash: task.inputHash,
      resultHash: task.resultHash,
      settlement: { method: 'free', settledCents: 0 },
      createdAt: task.createdAt,
    });
    expect(text).not.toContain('words');
    // The same through GraphQL.
    const gql = await server.api.graphql(`query($id: ID!) { task(id: $id) { receipt } }`, { id: task.id }, requester.apiKey);
    expect(gql.data.task.receipt).toBe(receipt);

    const check = await verifyAt(server, receipt);
    expect(check.data).toMatchObject({ valid: true, kid: header.kid, payload: { taskId: task.id } });
  });

  it('signs a finished task again when what it states changes, and only then', async () => {
    const { task } = await finishedTask({ n: 1 }, { ok: true });
    const receipts = server.app.services.receipts;
    const row = { ...task, createdAt: new Date(task.createdAt), finishedAt: new Date(task.finishedAt) };
    const held = { method: 'card' as const, status: 'authorized' as const, amountCents: 500, settledAt: null };
    const first = (await receipts.issue(row, held))!;
    expect(await receipts.issue(row, held)).toBe(first);
    // The payment settles after the task finished: the receipt states the settlement, newly signed.
    const settledAt = new Date('2026-01-02T03:04:05.000Z');
    const settled = (await receipts.issue(row, { ...held, status: 'captured', settledAt }))!;
    expect(settled).not.toBe(first);
    const claims = JSON.parse(new TextDecoder().decode((await compactVerify(settled, createRemoteJWKSet(new URL(`${server.url}/.well-known/jwks.json`)))).payload));
    expect(claims.settlement).toMatchObject({ method: 'card', paymentStatus: 'captured', amountCents: 500, settledAt: settledAt.toISOString() });
    expect(await receipts.issue(row, held)).toBe(first);
  });

  it('refuses a receipt with any byte changed, and bounds what it reads', async () => {
    const { task } = await finishedTask({ n: 1 }, { n: 2 });
    const receipt = task.receipt as string;
    const jwks = createLocalJWKSet((await server.api.get('/.well-known/jwks.json')).body);
    for (let i = 0; i < receipt.length; i += Math.ceil(receipt.length / 40)) {
      if (receipt[i] === '.') continue;
      const changed = receipt.slice(0, i) + (receipt[i] === 'A' ? 'B' : 'A') + receipt.slice(i + 1);
      await expect(compactVerify(changed, jwks), `byte ${i}`).rejects.toThrow();
      expect((await verifyAt(server, changed)).data.valid, `byte ${i}`).toBe(false);
    }
    const tooLong = await server.api.post('/v1/receipts/verify', { body: { receipt: 'x'.repeat(9000) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.field).toBe('receipt');
    expect((await verifyAt(server, 'not.a.receipt')).data).toMatchObject({ valid: false });
  });

  it('keeps verifying receipts of the previous key during a rotation’s overlap, and refuses them once it is retired', async () => {
    const { task } = await finishedTask({ n: 3 }, { n: 4 });
    const old = task.receipt as string;
    const published = (await rotated.api.get('/.well-known/jwks.json')).body.keys.map((k: { kid: string }) => k.kid);
    expect(published).toHaveLength(2);
    expect(published[1]).toBe(decodeProtectedHeader(old).kid);
    expect((await verifyAt(rotated, old)).data.valid).toBe(true);
    const fresh = (await rotated.api.get(`/v1/tasks/${task.id}`, { key: requester.apiKey })).body.data.receipt;
    expect(decodeProtectedHeader(fresh).kid).toMatch(/^receipt-v2-/);
    expect((await verifyAt(rotated, fresh)).data.valid).toBe(true);

    clock.offsetMs += 3601_000;
    const after = (await rotated.api.get('/.well-known/jwks.json')).body;
    expect(after.keys).toHaveLength(1);
    await expect(compactVerify(old, createLocalJWKSet(after))).rejects.toThrow();
    expect((await verifyAt(rotated, old)).data).toMatchObject({ valid: false, reason: expect.stringContaining('retired') });
    expect((await verifyAt(rotated, fresh)).data.valid).toBe(true);
  });
});
