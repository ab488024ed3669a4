// Standard Webhooks' asymmetric signature (v1a, Ed25519) on real deliveries: each agent has its own key
// pair, its public key (whpk_…) in the owner's record; a delivery verifies with it and with nothing
// secret, never with another agent's key; a rotation signs with both keys for its overlap. The HMAC
// signatures stay as they were: the `standardwebhooks` library (which verifies v1 only: its 1.1.1 has no
// v1a) still accepts the header carrying both, and the v1a part is checked with node:crypto as the
// specification describes (through the agent kit, which does the same).
import { createPublicKey, verify } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { startTestAgent, type ReceivedDelivery, type TestAgent } from './support/agent.js';
import { DeliveryRejected, verifyDelivery } from '../examples/agent/kit.js';

const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
let server: TestServer;
let owner: { apiKey: string };
let requester: { apiKey: string };
const agents: TestAgent[] = [];

const test = testWith({ serverTime: { clock } });

test.beforeAll(async ({ server: s, owner: o, requester: r }) => {
  [server, owner, requester] = [s, o, r];
});
afterAll(async () => {
  for (const a of agents) await a.close();
});

async function agentWithEndpoint(secret: boolean) {
  const http = await startTestAgent();
  agents.push(http);
  const created = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Signed', endpoint: http.url } })).body.data;
  if (secret) http.secret = (await server.api.post(`/v1/agents/${created.id}/webhook-secret`, { key: owner.apiKey })).body.webhookSecret;
  return { http, id: created.id as string, publicKey: created.signingPublicKey as string };
}

async function deliveredTo(agent: { http: TestAgent; id: string }): Promise<ReceivedDelivery> {
  const before = agent.http.received.length;
  await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId: agent.id } });
  const received = await agent.http.waitFor(before + 1);
  return received[before]!;
}

// The specification's check, by hand: Ed25519 over `id.timestamp.body` with the raw 32-byte public key.
function v1aVerifies(publicKey: string, d: ReceivedDelivery): boolean {
  const raw = Buffer.from(publicKey.slice('whpk_'.length), 'base64');
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  const signed = Buffer.concat([Buffer.from(`${d.headers['webhook-id']}.${d.headers['webhook-timestamp']}.`), d.raw]);
  return String(d.headers['webhook-signature'])
    .split(' ')
    .filter((s) => s.startsWith('v1a,'))
    .some((s) => verify(null, signed, key, Buffer.from(s.slice(4), 'base64')));
}

const kitVerifies = (d: ReceivedDelivery, publicKey: string) => {
  try {
    verifyDelivery({ rawBody: d.raw, headers: d.headers, publicKey, now: clock.now() });
    return true;
  } catch (error) {
    if (error instanceof DeliveryRejected) return false;
    throw error;
  }
};

describe('v1a', () => {
  it('signs each delivery with the agent’s own key beside the HMAC signatures, verifiable without a secret', async () => {
    const a = await agentWithEndpoint(true);
    const b = await agentWithEndpoint(true);
    expect(a.publicKey).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    expect(b.publicKey).not.toBe(a.publicKey);
    // The owner's record carries it; the public one does not need to.
    expect((await server.api.get(`/v1/agents/${a.id}`, { key: owner.apiKey })).body.data.signingPublicKey).toBe(a.publicKey);

    const d = await deliveredTo(a);
    const signatures = String(d.headers['webhook-signature']).split(' ');
    expect(signatures.map((s) => s.split(',')[0])).toEqual(['v1', 'v1a']);
    // The other side of the wire: the Standard Webhooks library accepts the header (its v1 entry)...
    expect(new Webhook(a.http.secret!).verify(d.raw.toString('utf8'), d.headers as Record<string, string>)).toMatchObject({ taskId: expect.any(String) });
    // ...the X-Service-Signature is unchanged...
    expect(d.signatureValid).toBe(true);
    // ...and v1a verifies with the public key alone, by hand and through the kit.
    expect(v1aVerifies(a.publicKey, d)).toBe(true);
    expect(kitVerifies(d, a.publicKey)).toBe(true);
    // Never with another agent's key, nor over other bytes.
    expect(v1aVerifies(b.publicKey, d)).toBe(false);
    expect(kitVerifies(d, b.publicKey)).toBe(false);
    expect(kitVerifies({ ...d, raw: Buffer.concat([d.raw.subarray(0, -1), Buffer.from(' ')]) }, a.publicKey)).toBe(false);
  });

  it('signs with v1a alone when the agent has no webhook secret', async () => {
    const a = await agentWithEndpoint(false);
    const d = await deliveredTo(a);
    expect(String(d.headers['webhook-signature'])).toMatch(/^v1a,[A-Za-z0-9+/]+=*$/);
    expect(d.headers['x-service-signature']).toBeUndefined();
    expect(kitVerifies(d, a.publicKey)).toBe(true);
  });

  it('rotates with an overlap in which both keys sign, then only the new one', async () => {
    const a = await agentWithEndpoint(true);
    const rotated = await server.api.post(`/v1/agents/${a.id}/signing-key`, { key: owner.apiKey, body: { graceSeconds: 3600 } });
    expect(rotated.status).toBe(200);
    const { signingPublicKey, previousSigningPublicKey, previousKeyExpiresAt } = rotated.body.data;
    expect(previousSigningPublicKey).toBe(a.publicKey);
    expect(signingPublicKey).not.toBe(a.publicKey);
    expect(Date.parse(previousKeyExpiresAt) - clock.now().getTime()).toBeGreaterThan(3500_000);
    const record = (await server.api.get(`/v1/agents/${a.id}`, { key: owner.apiKey })).body.data;
    expect(record).toMatchObject({ signingPublicKey, previousSigningPublicKey: a.publicKey });

    const during = await deliveredTo(a);
    expect(String(during.headers['webhook-signature']).split(' ').filter((s) => s.startsWith('v1a,'))).toHaveLength(2);
    expect(kitVerifies(during, a.publicKey)).toBe(true);
    expect(kitVerifies(during, signingPublicKey)).toBe(true);

    clock.offsetMs += 3601_000;
    const after = await deliveredTo(a);
    expect(String(after.headers['webhook-signature']).split(' ').filter((s) => s.startsWith('v1a,'))).toHaveLength(1);
    expect(kitVerifies(after, signingPublicKey)).toBe(true);
    expect(kitVerifies(after, a.publicKey)).toBe(false);
    expect((await server.api.get(`/v1/agents/${a.id}`, { key: owner.apiKey })).body.data.previousSigningPublicKey).toBeNull();
  });
});
