// The owner's webhook test and check send requests to an endpoint on demand: a budget per agent a
// minute (WEBHOOK_TEST_PER_MINUTE) keeps them from being an amplifier; each reply's capture is bounded.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PING_BODY_START_BYTES } from '../src/services/webhook-tools.js';
import { expect, testWith } from './support/fixtures.js';

let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
// The fixture agent has its webhook secret: it is the one pinged.
const test = testWith({ serverEnv: { WEBHOOK_TEST_PER_MINUTE: '5' }, serverTime: { clock }, agentProfile: { name: 'Pinged' } });

test('answers 429 with Retry-After past the budget of an agent, which others do not share, and again after a minute', async ({ server, owner, agent: pinged }) => {
  const { id: agent, http: endpoint } = pinged;
  const other = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Other', endpoint: endpoint.url } })).body.data.id as string;
  const received = () => endpoint.received.length;
  const before = received();

  for (let i = 0; i < 2; i++) expect((await server.api.post(`/v1/agents/${agent}/webhook/test`, { key: owner.apiKey })).status).toBe(200);
  // A check is three requests: 5 of 5 spent.
  expect((await server.api.post(`/v1/agents/${agent}/webhook/check`, { key: owner.apiKey })).status).toBe(200);
  expect(received() - before).toBe(5);

  const refused = await server.api.post(`/v1/agents/${agent}/webhook/test`, { key: owner.apiKey });
  expect(refused.status).toBe(429);
  expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/at most 5 test requests/) });
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await server.api.post(`/v1/agents/${agent}/webhook/check`, { key: owner.apiKey })).status).toBe(429);
  // Refused ones send nothing.
  expect(received() - before).toBe(5);

  expect((await server.api.post(`/v1/agents/${other}/webhook/test`, { key: owner.apiKey })).status).toBe(200);

  offsetMs += 61_000;
  expect((await server.api.post(`/v1/agents/${agent}/webhook/test`, { key: owner.apiKey })).status).toBe(200);
});

test('keeps only the start of a long reply', async ({ server }) => {
  const talkative = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('y'.repeat(1_000_000));
  });
  await new Promise<void>((resolve) => talkative.listen(0, '127.0.0.1', resolve));
  try {
    const owner = await server.createUser();
    const url = `http://127.0.0.1:${(talkative.address() as AddressInfo).port}/`;
    const agent = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Talkative', endpoint: url } })).body.data.id as string;
    const res = await server.api.post(`/v1/agents/${agent}/webhook/test`, { key: owner.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.data.bodyStart.length).toBeGreaterThan(0);
    expect(Buffer.byteLength(res.body.data.bodyStart)).toBeLessThanOrEqual(PING_BODY_START_BYTES);
  } finally {
    await new Promise((resolve) => talkative.close(resolve));
  }
});
