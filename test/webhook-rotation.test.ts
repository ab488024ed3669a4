// Rotating a webhook secret without downtime: during the grace period a delivery carries a Standard
// Webhooks signature for the old and for the new secret (checked here with the official standardwebhooks
// library) and X-Service-Signature for the new one; afterwards only the new one. Time is the service's
// clock, moved by the test.
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DeliveryRejected, verifyDelivery } from '../examples/agent/kit.js';
import { verifyServiceSignature } from '../src/delivery/signing.js';
import { startTestAgent, type ReceivedDelivery, type TestAgent } from './support/agent.js';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

let server: TestServer;
let owner: { apiKey: string };
let bob: { apiKey: string };
let requester: { apiKey: string };
let http: TestAgent;
let agentId: string;

const test = testWith({ serverTime: { clock } });

test.beforeAll(async ({ server: s, owner: o, requester: r }) => {
  [server, owner, requester] = [s, o, r];
  bob = await server.createUser();
  http = await startTestAgent();
  agentId = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Rotating', endpoint: http.url } })).body.data.id;
});
afterAll(async () => {
  await http?.close();
});

const rotate = (body?: Record<string, unknown>, key = owner.apiKey) => server.api.post(`/v1/agents/${agentId}/webhook-secret`, { key, body });

async function deliverOne(): Promise<ReceivedDelivery> {
  const before = http.received.length;
  const task = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId } });
  expect(task.status).toBe(201);
  const [, ...rest] = (await http.waitFor(before + 1)).slice(before);
  expect(rest).toEqual([]);
  return http.received[before]!;
}

// The official verifier reads the wall clock; it is given the service's (moved) time, synchronously.
function standardVerifies(secret: string, d: ReceivedDelivery): boolean {
  vi.useFakeTimers({ toFake: ['Date'], now: clock.now() });
  try {
    new Webhook(secret).verify(d.raw.toString('utf8'), d.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  } finally {
    vi.useRealTimers();
  }
}

function kitVerifies(secret: string | string[], d: ReceivedDelivery, withoutStandardHeaders = false): boolean {
  const headers = { ...d.headers };
  if (withoutStandardHeaders) delete headers['webhook-signature'];
  try {
    verifyDelivery({ rawBody: d.raw, headers, secret, now: clock.now() });
    return true;
  } catch (error) {
    if (error instanceof DeliveryRejected) return false;
    throw error;
  }
}

describe('webhook secret rotation with a grace period', () => {
  let oldSecret: string;
  let newSecret: string;

  it('signs with the old and the new secret during the grace period, and only with the new one after it', async () => {
    const first = await rotate();
    expect(first.status).toBe(200);
    // No secret before: nothing to keep.
    expect(first.body.previousSecretExpiresAt).toBeNull();
    oldSecret = first.body.webhookSecret;

    const second = await rotate({ graceSeconds: 3600 });
    expect(second.status).toBe(200);
    newSecret = second.body.webhookSecret;
    const endsAt = Date.parse(second.body.previousSecretExpiresAt);
    expect(Math.abs(endsAt - (clock.now().getTime() + 3_600_000))).toBeLessThan(5_000);
    expect(second.body.message).toMatch(/previousSecretExpiresAt/);
    // The owner sees when the old secret ends, over REST and GraphQL; never a secret.
    const detail = await server.api.get(`/v1/agents/${agentId}`, { key: owner.apiKey });
    expect(Date.parse(detail.body.data.previousWebhookSecretExpiresAt)).toBe(endsAt);
    expect(JSON.stringify(detail.body)).not.toContain('whsec_');
    const gql = await server.api.graphql(`query($id: ID!) { myAgent(id: $id) { previousWebhookSecretExpiresAt } }`, { id: agentId }, owner.apiKey);
    expect(Date.parse(gql.data.myAgent.previousWebhookSecretExpiresAt)).toBe(endsAt);

    const during = await deliverOne();
    expect(String(during.headers['webhook-signature']).split(' ').filter((x) => x.startsWith('v1,'))).toHaveLength(2);
    expect(standardVerifies(oldSecret, during)).toBe(true);
    expect(standardVerifies(newSecret, during)).toBe(true);
    // The spec's header carries the new secret's signature.
    expect(verifyServiceSignature(newSecret, during.raw, during.headers['x-service-signature'] as string)).toBe(true);
    expect(verifyServiceSignature(oldSecret, during.raw, during.headers['x-service-signature'] as string)).toBe(false);
    // The agent kit accepts it holding either secret (or both).
    expect(kitVerifies(oldSecret, during)).toBe(true);
    expect(kitVerifies(newSecret, during)).toBe(true);
    expect(kitVerifies([oldSecret, newSecret], during, true)).toBe(true);

    offsetMs += 3_601_000;
    const after = await deliverOne();
    expect(String(after.headers['webhook-signature']).split(' ').filter((x) => x.startsWith('v1,'))).toHaveLength(1);
    expect(standardVerifies(newSecret, after)).toBe(true);
    expect(standardVerifies(oldSecret, after)).toBe(false);
    expect(kitVerifies(newSecret, after)).toBe(true);
    expect(kitVerifies(oldSecret, after)).toBe(false);
    expect((await server.api.get(`/v1/agents/${agentId}`, { key: owner.apiKey })).body.data.previousWebhookSecretExpiresAt).toBeNull();
  });

  it('graceSeconds 0 ends the old secret at once; GraphQL takes graceSeconds too', async () => {
    const res = await server.api.graphql(
      `mutation($id: ID!) { rotateAgentWebhookSecret(id: $id, graceSeconds: 0) { webhookSecret previousSecretExpiresAt } }`,
      { id: agentId },
      owner.apiKey,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.rotateAgentWebhookSecret.previousSecretExpiresAt).toBeNull();
    const latest = res.data.rotateAgentWebhookSecret.webhookSecret as string;
    const d = await deliverOne();
    expect(standardVerifies(latest, d)).toBe(true);
    expect(standardVerifies(newSecret, d)).toBe(false);
  });

  it('defaults to a day of grace', async () => {
    const res = await rotate();
    expect(Math.abs(Date.parse(res.body.previousSecretExpiresAt) - (clock.now().getTime() + 86_400_000))).toBeLessThan(5_000);
  });

  it('refuses a grace period out of range (400 naming graceSeconds), another owner (403), an unknown agent (404)', async () => {
    for (const graceSeconds of [-1, 604_801, 1.5, 'soon']) {
      const res = await rotate({ graceSeconds });
      expect(res.status, String(graceSeconds)).toBe(400);
      expect(res.body.error.field).toBe('graceSeconds');
    }
    expect((await rotate({ graceSeconds: 604_800 })).status).toBe(200);
    expect((await rotate({ graceSeconds: 60 }, bob.apiKey)).status).toBe(403);
    expect((await server.api.post('/v1/agents/agt_missing/webhook-secret', { key: owner.apiKey, body: { graceSeconds: 60 } })).status).toBe(404);
    const gql = await server.api.graphql(`mutation($id: ID!) { rotateAgentWebhookSecret(id: $id, graceSeconds: 604801) { webhookSecret } }`, { id: agentId }, owner.apiKey);
    expect(gql.errors![0]!.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'graceSeconds' });
  });

  it('removing the secret ends the previous one too', async () => {
    await rotate({ graceSeconds: 3600 });
    expect((await server.api.delete(`/v1/agents/${agentId}/webhook-secret`, { key: owner.apiKey })).status).toBe(200);
    const stored = await server.prisma.agent.findUniqueOrThrow({ where: { id: agentId } });
    expect(stored).toMatchObject({ webhookSecretEnc: null, previousWebhookSecretEnc: null, previousWebhookSecretExpiresAt: null });
  });
});
