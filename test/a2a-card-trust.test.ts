// What a card proves and what it can make the service do (issue 33): an import has one deadline for the
// card and all its key sets, fetching each key set once; only a signature by a key published on the
// card's own origin makes it verified, and then the endpoint comes from what was signed; deliveries go to
// the interface shown as the agent's endpoint and nowhere else; a finished task's token causes no calls.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSecretKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAgentCardSignature, TaskState } from '@a2a-js/sdk';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { startSdkAgent, type SdkAgent } from './support/a2a-agent.js';
import { waitForStatus } from './support/agent.js';
import { until } from './support/wait.js';
import type { Deadlines } from '../src/deps.js';

const DEADLINE_MS = 1000;

// The imports' deadlines: real ones, except where a test takes the next one to end it itself (ends()),
// so what happens when the deadline passes does not depend on how fast the machine is.
let heldDeadline: AbortController | null = null;
const deadlines: Deadlines = { after: (ms) => heldDeadline?.signal ?? AbortSignal.timeout(ms) };
function holdNextDeadline(): AbortController {
  heldDeadline = new AbortController();
  return heldDeadline;
}

let server: TestServer;
let owner: { id: string; apiKey: string };
let requester: { id: string; apiKey: string };
const closers: Array<() => Promise<void>> = [];

const test = testWith({ serverEnv: { DELIVERY_TIMEOUT_MS: String(DEADLINE_MS), A2A_BLOCKING_WAIT_MS: '15000' }, serverTime: { deadlines } });

test.beforeAll(async ({ server: s, owner: o, requester: r }) => {
  [server, owner, requester] = [s, o, r];
});
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

const importCard = (cardUrl: string) => server.api.post('/v1/agents/import', { key: owner.apiKey, body: { cardUrl } });

// A host of cards and key sets: fixed bodies, or bodies that trickle a byte at a time and never end
// (`onTrickle` is told when one has started). It counts the requests at each path.
async function startCardHost(onTrickle: (path: string) => void = () => {}) {
  const bodies = new Map<string, string>();
  const trickling = new Set<string>();
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (trickling.has(path)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(' ', () => onTrickle(path));
      const timer = setInterval(() => res.write(' '), 100);
      res.on('close', () => clearInterval(timer));
      return;
    }
    const body = bodies.get(path);
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    base,
    serve: (path: string, body: unknown) => bodies.set(path, typeof body === 'string' ? body : JSON.stringify(body)),
    trickle: (path: string) => trickling.add(path),
    hits: (path: string) => hits.get(path) ?? 0,
  };
}

// An A2A 1.0 card (JSON) with the given interfaces.
const cardJson = (name: string, interfaces: Array<{ url: string; protocolBinding: string; protocolVersion: string }>) => ({
  name,
  description: `${name}, for the tests`,
  version: '1.0.0',
  supportedInterfaces: interfaces,
  capabilities: { streaming: false, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['application/json'],
  skills: [{ id: 'test', name: 'Test', description: 'Test', tags: ['test'] }],
});

const ecKey = (kid: string) => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateKey, jwk: { ...(publicKey as KeyObject).export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' } };
};

const sign = (card: object, key: KeyObject, header: Record<string, unknown>) =>
  generateAgentCardSignature(key, header as never)(card as never) as unknown as Promise<Record<string, unknown>>;

// A signature entry that names a key set but was never made with any key.
const fakeSignature = (kid: string, jku: string) => ({
  protected: Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JOSE', kid, jku })).toString('base64url'),
  signature: randomBytes(64).toString('base64url'),
});

describe('one deadline for the whole import', () => {
  it('key sets that trickle do not hold the import past the deadline: after the first, none is fetched', async () => {
    // The deadline passes while the first key set trickles in (its answer has begun and never ends), not
    // after a real second that a busy machine may spend anywhere in the import.
    const deadline = holdNextDeadline();
    const host = await startCardHost(() => deadline.abort());
    const jkus = [1, 2, 3].map((n) => `/slow-${n}.json`);
    for (const jku of jkus) host.trickle(jku);
    host.serve('/card.json', { ...cardJson('Slow Sloth', [{ url: `${host.base}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]), signatures: jkus.map((jku) => fakeSignature('k1', `${host.base}${jku}`)) });
    const res = await importCard(`${host.base}/card.json`).finally(() => (heldDeadline = null));
    expect(deadline.signal.aborted).toBe(true);
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain(`within ${DEADLINE_MS} ms`);
    // The first key set used up the deadline; the others were not even asked for.
    expect(jkus.map((jku) => host.hits(jku))).toEqual([1, 0, 0]);
    // Were the exchange not cut when the deadline passed, the import would wait on the trickle for good.
  }, 15_000);

  it('a key set named by many signatures is fetched once', async () => {
    const host = await startCardHost();
    host.serve('/keys.json', { keys: [ecKey('k1').jwk] });
    const signatures = Array.from({ length: 8 }, () => fakeSignature('k1', `${host.base}/keys.json`));
    host.serve('/card.json', { ...cardJson('Many Mice', [{ url: `${host.base}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]), signatures });
    const res = await importCard(`${host.base}/card.json`);
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain('signature does not verify');
    expect(host.hits('/keys.json')).toBe(1);
  });
});

describe('what cardVerified proves', () => {
  it('the endpoint of a verified card comes from its signed part: a v0.3 url added beside the signature is refused', async () => {
    const host = await startCardHost();
    const { privateKey, jwk } = ecKey('k1');
    host.serve('/keys.json', { keys: [jwk] });
    const signed = await sign(cardJson('Grpc Grebe', [{ url: `${host.base}/grpc`, protocolBinding: 'GRPC', protocolVersion: '1.0' }]), privateKey, {
      alg: 'ES256',
      typ: 'JOSE',
      kid: 'k1',
      jku: `${host.base}/keys.json`,
    });
    host.serve('/card.json', { ...signed, url: `${host.base}/unsigned-rpc`, preferredTransport: 'JSONRPC' });
    const res = await importCard(`${host.base}/card.json`);
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain('signed part declares no JSON-RPC interface');

    // Signed with its JSON-RPC interface, the same addition changes nothing: the signed one is used.
    const honest = await sign(cardJson('Honest Hoopoe', [{ url: `${host.base}/signed-rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]), privateKey, {
      alg: 'ES256',
      typ: 'JOSE',
      kid: 'k1',
      jku: `${host.base}/keys.json`,
    });
    host.serve('/honest.json', { ...honest, url: `${host.base}/unsigned-rpc`, preferredTransport: 'JSONRPC', protocolVersion: '0.3' });
    const ok = await importCard(`${host.base}/honest.json`);
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ cardVerified: true, endpoint: `${host.base}/signed-rpc` });
  });

  it('a key the card carries (an HS256 oct key, an EC key) or a key set elsewhere proves nothing', async () => {
    const host = await startCardHost();
    const elsewhere = await startCardHost();
    const rpc = [{ url: `${host.base}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }];

    const secret = randomBytes(32);
    const hmac = await sign(cardJson('Secret Siskin', rpc), createSecretKey(secret), { alg: 'HS256', typ: 'JOSE', kid: 'h1', jwk: { kty: 'oct', k: secret.toString('base64url') } });
    host.serve('/hmac.json', hmac);

    const { privateKey, jwk } = ecKey('e1');
    const embedded = await sign(cardJson('Embedded Egret', rpc), privateKey, { alg: 'ES256', typ: 'JOSE', kid: 'e1', jwk });
    host.serve('/embedded.json', embedded);

    elsewhere.serve('/keys.json', { keys: [jwk] });
    const foreign = await sign(cardJson('Foreign Finch', rpc), privateKey, { alg: 'ES256', typ: 'JOSE', kid: 'e1', jku: `${elsewhere.base}/keys.json` });
    host.serve('/foreign.json', foreign);

    for (const path of ['/hmac.json', '/embedded.json', '/foreign.json']) {
      const res = await importCard(`${host.base}${path}`);
      expect(res.status, path).toBe(201);
      expect(res.body.data.cardVerified, path).toBe(false);
    }
    // A key set on another origin is not even fetched.
    expect(elsewhere.hits('/keys.json')).toBe(0);
  });

  it('a symmetric key in the card origin’s key set does not verify (422)', async () => {
    const host = await startCardHost();
    const secret = randomBytes(32);
    host.serve('/keys.json', { keys: [{ kty: 'oct', k: secret.toString('base64url'), kid: 'h1' }] });
    const hmac = await sign(cardJson('Shared Shrike', [{ url: `${host.base}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]), createSecretKey(secret), {
      alg: 'HS256',
      typ: 'JOSE',
      kid: 'h1',
      jku: `${host.base}/keys.json`,
    });
    host.serve('/card.json', hmac);
    const res = await importCard(`${host.base}/card.json`);
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain('symmetric');
  });
});

describe('deliveries go to the interface shown as the endpoint', () => {
  let agent: SdkAgent;
  beforeAll(async () => {
    agent = await startSdkAgent({ name: 'Shown Shag', protocolVersion: '0.3', pushNotifications: false });
    closers.push(() => agent.close());
  });

  it('with two JSON-RPC interfaces, the first (shown) one gets the message; the other is never called', async () => {
    const card = (await (await fetch(agent.cardUrl)).json()) as Record<string, unknown>;
    const shown = `${agent.url}/a2a/jsonrpc`;
    agent.serve('/two.json', {
      ...card,
      name: 'Two Faced Tern',
      supportedInterfaces: [
        { url: shown, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
        { url: `${agent.url}/hidden`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
    });
    const imported = await importCard(`${agent.url}/two.json`);
    expect(imported.status).toBe(201);
    expect(imported.body.data.endpoint).toBe(shown);
    const created = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Which door', description: 'The shown one', agentId: imported.body.data.id } });
    const taskId = created.body.data.id as string;
    const attempt = await until('the first attempt', async () => {
      const deliveries = (await server.api.get(`/v1/agents/${imported.body.data.id}/deliveries`, { key: owner.apiKey })).body.data as Array<{ taskId: string; attempts: Array<{ statusCode: number | null }> }>;
      return deliveries.find((d) => d.taskId === taskId && d.attempts.length > 0)?.attempts[0];
    });
    expect(attempt.statusCode).toBe(200);
    expect(agent.received.map((m) => m.messageId)).toContain(taskId);
    expect(agent.methods).toContain('message/send');
    await server.api.post(`/v1/tasks/${taskId}/cancel`, { key: requester.apiKey });
  });
});

describe('a finished task’s token', () => {
  it('pushes with it are acknowledged and cause no CancelTask, however many', async () => {
    const agent = await startSdkAgent({ name: 'Busy Bittern', pushNotifications: true });
    closers.push(() => agent.close());
    // Works until cancelled.
    agent.behave((ctx, bus) => {
      bus.publish({ kind: 'task', data: { id: ctx.taskId, contextId: ctx.contextId, status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString() }, artifacts: [], history: [], metadata: undefined } });
      return new Promise<void>((resolve) => bus.once('finished', () => resolve()));
    });
    const imported = await importCard(agent.cardUrl);
    const created = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Cancel me', description: 'Then push', agentId: imported.body.data.id } });
    const taskId = created.body.data.id as string;
    const get = () => server.api.get(`/v1/tasks/${taskId}`, { key: requester.apiKey }).then((r) => r.body.data);
    await waitForStatus(get, ['in_progress']);
    await server.api.post(`/v1/tasks/${taskId}/cancel`, { key: requester.apiKey });
    await until('CancelTask at the agent', () => agent.cancelled.length === 1);

    const row = await server.prisma.task.findUniqueOrThrow({ where: { id: taskId } });
    const token = server.app.services.tasks.tokenFor(row)!;
    const link = await server.prisma.a2ATaskLink.findUniqueOrThrow({ where: { taskId } });
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.url}/v1/tasks/${taskId}/callback`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/a2a+json' },
        body: JSON.stringify({ task: { id: link.remoteTaskId, contextId: link.remoteContextId, status: { state: 'TASK_STATE_WORKING' } } }),
      });
      expect(res.status).toBe(200);
    }
    // The one CancelTask of the cancellation, and no more.
    expect(await server.prisma.delivery.count({ where: { taskId, type: 'a2a.cancel' } })).toBe(1);
    expect(agent.cancelled).toHaveLength(1);
    expect((await get()).status).toBe('cancelled');
  });
});
