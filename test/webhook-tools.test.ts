// The owner's endpoint tools: a signed test ping (status, latency, the start of the answer) and the
// conformance check (does the endpoint accept a valid request and refuse a wrongly signed and a stale one?).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { deliveryHandler } from '../examples/agent/kit.js';
import { startTestAgent, type TestAgent } from './support/agent.js';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let server: TestServer;
let owner: { apiKey: string };
let bob: { apiKey: string };
// An endpoint built on the agent kit: verifies signatures for real.
let strict: http.Server;
let strictSecret = '';
let strictId: string;
// An endpoint that answers 200 to anything.
let lax: TestAgent;
let laxId: string;

const listen = async (s: http.Server) => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/tasks`;
};

test.beforeAll(async ({ server: s, owner: o }) => {
  [server, owner] = [s, o];
  bob = await server.createUser();
  strict = http.createServer(deliveryHandler({ secret: () => strictSecret, work: async () => ({}) }));
  const strictUrl = await listen(strict);
  strictId = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Strict', endpoint: strictUrl } })).body.data.id;
  strictSecret = (await server.api.post(`/v1/agents/${strictId}/webhook-secret`, { key: owner.apiKey })).body.webhookSecret;
  lax = await startTestAgent();
  laxId = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Lax', endpoint: lax.url } })).body.data.id;
});
afterAll(async () => {
  await new Promise((r) => strict?.close(r));
  await lax?.close();
});

describe('POST /v1/agents/:id/webhook/test', () => {
  it('sends a signed ping and answers status, latency and the start of the reply', async () => {
    const res = await server.api.post(`/v1/agents/${strictId}/webhook/test`, { key: owner.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ ok: true, statusCode: 200, error: null, signed: true });
    expect(res.body.data.latencyMs).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(res.body.data.bodyStart)).toEqual({ ok: true, type: 'ping' });
  });

  it('signs the ping the Standard Webhooks way; unsigned while the agent has no secret', async () => {
    const unsigned = await server.api.post(`/v1/agents/${laxId}/webhook/test`, { key: owner.apiKey });
    expect(unsigned.body.data).toMatchObject({ ok: true, signed: false });
    expect(lax.received.at(-1)!.headers['webhook-signature']).toBeUndefined();

    const secret = (await server.api.post(`/v1/agents/${laxId}/webhook-secret`, { key: owner.apiKey })).body.webhookSecret;
    const gql = await server.api.graphql(`mutation($id: ID!) { testAgentWebhook(agentId: $id) { ok signed statusCode } }`, { id: laxId }, owner.apiKey);
    expect(gql.data.testAgentWebhook).toEqual({ ok: true, signed: true, statusCode: 200 });
    const ping = lax.received.at(-1)!;
    const body = new Webhook(secret).verify(ping.raw.toString('utf8'), ping.headers as Record<string, string>) as { type: string; data: { agentId: string } };
    expect(body).toMatchObject({ type: 'ping', data: { agentId: laxId } });
    expect(ping.headers['x-service-event']).toBe('ping');
  });

  it('reports an endpoint that does not answer', async () => {
    const closed = http.createServer();
    const url = await listen(closed);
    await new Promise((r) => closed.close(r));
    const id = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Gone', endpoint: url } })).body.data.id;
    const res = await server.api.post(`/v1/agents/${id}/webhook/test`, { key: owner.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ ok: false, statusCode: null, bodyStart: null });
    expect(res.body.data.error).toEqual(expect.any(String));
  });

  it('refuses another owner (403) and an unknown agent (404)', async () => {
    expect((await server.api.post(`/v1/agents/${strictId}/webhook/test`, { key: bob.apiKey })).status).toBe(403);
    expect((await server.api.post('/v1/agents/agt_missing/webhook/test', { key: owner.apiKey })).status).toBe(404);
    expect((await server.api.post(`/v1/agents/${strictId}/webhook/test`, {})).status).toBe(401);
  });
});

describe('POST /v1/agents/:id/webhook/check', () => {
  it('passes an endpoint that verifies signatures', async () => {
    const res = await server.api.post(`/v1/agents/${strictId}/webhook/check`, { key: owner.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ verifiesSignatures: true, acceptedValid: true, refusedWrongSignature: true, refusedStaleTimestamp: true });
    expect(res.body.data.requests.map((r: { case: string; statusCode: number }) => [r.case, r.statusCode])).toEqual([
      ['valid', 200],
      ['wrong_signature', 401],
      ['stale_timestamp', 401],
    ]);
  });

  it('fails an endpoint that takes anything, over GraphQL too', async () => {
    const res = await server.api.post(`/v1/agents/${laxId}/webhook/check`, { key: owner.apiKey });
    expect(res.body.data).toMatchObject({ verifiesSignatures: false, acceptedValid: true, refusedWrongSignature: false, refusedStaleTimestamp: false });
    const gql = await server.api.graphql(`mutation($id: ID!) { checkAgentWebhook(agentId: $id) { verifiesSignatures requests { case } } }`, { id: laxId }, owner.apiKey);
    expect(gql.data.checkAgentWebhook.verifiesSignatures).toBe(false);
  });

  it('refuses an agent without a secret (409), another owner (403), an unknown agent (404)', async () => {
    const id = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Unsigned', endpoint: lax.url } })).body.data.id;
    const res = await server.api.post(`/v1/agents/${id}/webhook/check`, { key: owner.apiKey });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/webhook secret/);
    expect((await server.api.post(`/v1/agents/${strictId}/webhook/check`, { key: bob.apiKey })).status).toBe(403);
    expect((await server.api.post('/v1/agents/agt_missing/webhook/check', { key: owner.apiKey })).status).toBe(404);
  });
});
