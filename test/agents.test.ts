// The agent registry over real HTTP: every /v1/agents endpoint, its field set and its errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';

const ownerFields = [
  'id', 'name', 'slug', 'description', 'longDescription', 'endpoint', 'deliveryMode', 'protocols', 'categories', 'capabilities', 'tags',
  'docsUrl', 'manifestUrl', 'authType', 'version', 'inputSchema', 'twitterUrl', 'status', 'verified', 'healthStatus',
  'trustScore', 'trustTier', 'hasWebhookSecret', 'previousWebhookSecretExpiresAt', 'signingPublicKey', 'previousSigningPublicKey', 'previousSigningKeyExpiresAt', 'deliveryState', 'endpointFailingSince', 'endpointDisabledAt', 'maxConcurrentTasks', 'maxDeliveriesPerSecond', 'priceCents', 'taskCount', 'avgRating', 'createdAt', 'updatedAt',
  // From an A2A card (test/a2a-import.test.ts); empty for an agent registered by hand.
  'cardVerified', 'cardFetchedAt', 'iconUrl', 'provider', 'streaming', 'pushNotifications',
].sort();

// The service's clock, moved forward by the test where it compares times.
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
let server: TestServer;
let alice: { id: string; apiKey: string };
let bob: { id: string; apiKey: string };

const newAgent = (extra: Record<string, unknown> = {}) => ({ name: 'Translator Bot', endpoint: 'http://127.0.0.1:9/tasks', ...extra });

beforeAll(async () => {
  server = await startTestServer({}, { time: { clock } });
  alice = await server.createUser();
  bob = await server.createUser();
});
afterAll(() => server?.close());

describe('POST /v1/agents', () => {
  it('creates an active agent owned by the caller with the full owner field set', async () => {
    const res = await server.api.post('/v1/agents', {
      key: alice.apiKey,
      body: newAgent({ description: 'Translates text', capabilities: ['Translation', 'translation', 'French'], priceCents: 250 }),
    });
    expect(res.status).toBe(201);
    const agent = res.body.data;
    expect(Object.keys(agent).sort()).toEqual(ownerFields);
    expect(agent).toMatchObject({
      name: 'Translator Bot',
      slug: 'translator-bot',
      status: 'active',
      capabilities: ['translation', 'french'],
      priceCents: 250,
      hasWebhookSecret: false,
      verified: false,
      healthStatus: 'unknown',
      trustTier: 'unrated',
      taskCount: 0,
      avgRating: null,
    });
    expect(new Date(agent.createdAt).toISOString()).toBe(agent.createdAt);
  });

  it('gives a second agent with the same name a suffixed slug', async () => {
    const res = await server.api.post('/v1/agents', { key: bob.apiKey, body: newAgent() });
    expect(res.status).toBe(201);
    expect(res.body.data.slug).toMatch(/^translator-bot-\d+$/);
  });

  it.each([
    [{ endpoint: 'http://127.0.0.1:9/x' }, 'name'],
    [{ name: 'No endpoint' }, 'endpoint'],
    [newAgent({ name: '' }), 'name'],
    [newAgent({ name: 42 }), 'name'],
    [newAgent({ endpoint: 'ftp://example.com/x' }), 'endpoint'],
    [newAgent({ endpoint: 'not a url' }), 'endpoint'],
    [newAgent({ docsUrl: 'javascript:alert(1)' }), 'docsUrl'],
    [newAgent({ twitterUrl: '/relative' }), 'twitterUrl'],
    [newAgent({ inputSchema: '{not json' }), 'inputSchema'],
    [newAgent({ inputSchema: '{"type":"wrong"}' }), 'inputSchema'],
    [newAgent({ inputSchema: '[1,2]' }), 'inputSchema'],
    [newAgent({ priceCents: -5 }), 'priceCents'],
    [newAgent({ priceCents: 1.5 }), 'priceCents'],
    [newAgent({ tags: [1] }), 'tags'],
    [newAgent({ status: 'sleeping' }), 'status'],
    [newAgent({ unknownField: true }), 'unknownField'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const res = await server.api.post('/v1/agents', { key: alice.apiKey, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field });
    expect(typeof res.body.error.message).toBe('string');
  });

  it('refuses a body that is not JSON with 415 and malformed JSON with 400', async () => {
    const notJson = await server.api.post('/v1/agents', { key: alice.apiKey, body: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect(notJson.status).toBe(415);
    expect(notJson.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const broken = await server.api.post('/v1/agents', { key: alice.apiKey, body: '{"name":' });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'body' });
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const res = await server.api.post('/v1/agents', { key: alice.apiKey, body: newAgent({ longDescription: 'x'.repeat(1024 * 1024 + 10) }) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('needs credentials that verify', async () => {
    const none = await server.api.post('/v1/agents', { body: newAgent() });
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('UNAUTHENTICATED');
    const bad = await server.api.post('/v1/agents', { key: 'tmk_not-a-real-key', body: newAgent() });
    expect(bad.status).toBe(401);
  });
});

describe('reading, updating and deleting', () => {
  let agentId: string;
  beforeAll(async () => {
    const res = await server.api.post('/v1/agents', { key: alice.apiKey, body: newAgent({ name: 'Summarizer' }) });
    agentId = res.body.data.id;
  });

  it('lists only the caller’s agents in { data }', async () => {
    const mine = await server.api.get('/v1/agents', { key: alice.apiKey });
    expect(mine.status).toBe(200);
    expect(mine.body.data.length).toBeGreaterThanOrEqual(2);
    expect(mine.body.data.every((a: { id: string }) => typeof a.id === 'string')).toBe(true);
    const bobs = await server.api.get('/v1/agents', { key: bob.apiKey });
    expect(bobs.body.data.map((a: { id: string }) => a.id)).not.toContain(agentId);
    for (const a of mine.body.data) expect(Object.keys(a).sort()).toEqual(ownerFields);
  });

  it('reads one agent in full, 403 for another owner, 404 for an unknown id', async () => {
    const res = await server.api.get(`/v1/agents/${agentId}`, { key: alice.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(agentId);
    expect(Object.keys(res.body.data).sort()).toEqual(ownerFields);
    expect((await server.api.get(`/v1/agents/${agentId}`, { key: bob.apiKey })).status).toBe(403);
    const missing = await server.api.get('/v1/agents/agt_missing', { key: alice.apiKey });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  });

  it('updates only the given fields, refreshes updatedAt and renames the slug', async () => {
    const before = (await server.api.get(`/v1/agents/${agentId}`, { key: alice.apiKey })).body.data;
    clock.offsetMs += 1000;
    const res = await server.api.put(`/v1/agents/${agentId}`, {
      key: alice.apiKey,
      body: { name: 'Document Summarizer Pro', tags: ['Docs'], inputSchema: '{"type":"object","properties":{"text":{"type":"string"}}}' },
    });
    expect(res.status).toBe(200);
    const after = res.body.data;
    expect(after).toMatchObject({ name: 'Document Summarizer Pro', slug: 'document-summarizer-pro', tags: ['docs'] });
    expect(after.endpoint).toBe(before.endpoint);
    expect(after.description).toBe(before.description);
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect(after.createdAt).toBe(before.createdAt);
  });

  it('clears an optional field with null but refuses null for a required one', async () => {
    await server.api.put(`/v1/agents/${agentId}`, { key: alice.apiKey, body: { docsUrl: 'https://docs.example.com/x' } });
    const cleared = await server.api.put(`/v1/agents/${agentId}`, { key: alice.apiKey, body: { docsUrl: null } });
    expect(cleared.body.data.docsUrl).toBeNull();
    const res = await server.api.put(`/v1/agents/${agentId}`, { key: alice.apiKey, body: { name: null } });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('name');
  });

  it('refuses an update by another user with 403 and leaves the agent unchanged', async () => {
    const res = await server.api.put(`/v1/agents/${agentId}`, { key: bob.apiKey, body: { name: 'Hijacked' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    const still = await server.api.get(`/v1/agents/${agentId}`, { key: alice.apiKey });
    expect(still.body.data.name).toBe('Document Summarizer Pro');
  });

  it('refuses invalid updates with 400 and unknown ids with 404', async () => {
    const bad = await server.api.put(`/v1/agents/${agentId}`, { key: alice.apiKey, body: { inputSchema: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('inputSchema');
    expect((await server.api.put('/v1/agents/agt_missing', { key: alice.apiKey, body: { name: 'x' } })).status).toBe(404);
  });

  it('deletes: 403 for another user, then { message } for the owner, then 404', async () => {
    expect((await server.api.delete(`/v1/agents/${agentId}`, { key: bob.apiKey })).status).toBe(403);
    const res = await server.api.delete(`/v1/agents/${agentId}`, { key: alice.apiKey });
    expect(res.status).toBe(200);
    expect(typeof res.body.message).toBe('string');
    expect((await server.api.get(`/v1/agents/${agentId}`, { key: alice.apiKey })).status).toBe(404);
    expect((await server.api.delete(`/v1/agents/${agentId}`, { key: alice.apiKey })).status).toBe(404);
  });
});

describe('webhook secrets', () => {
  let agentId: string;
  beforeAll(async () => {
    agentId = (await server.api.post('/v1/agents', { key: alice.apiKey, body: newAgent({ name: 'Signer' }) })).body.data.id;
  });

  it('returns the secret once, rotates it, and never shows it anywhere else', async () => {
    const first = await server.api.post(`/v1/agents/${agentId}/webhook-secret`, { key: alice.apiKey });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['message', 'previousSecretExpiresAt', 'webhookSecret']);
    expect(first.body.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{40,}={0,2}$/);

    const second = await server.api.post(`/v1/agents/${agentId}/webhook-secret`, { key: alice.apiKey });
    expect(second.body.webhookSecret).not.toBe(first.body.webhookSecret);

    const stored = await server.prisma.agent.findUniqueOrThrow({ where: { id: agentId } });
    expect(stored.webhookSecretEnc).not.toContain(second.body.webhookSecret);
    expect(server.app.services.agents.webhookSecretOf(stored)).toBe(second.body.webhookSecret);

    const detail = await server.api.get(`/v1/agents/${agentId}`, { key: alice.apiKey });
    const list = await server.api.get('/v1/agents', { key: alice.apiKey });
    const gql = await server.api.graphql(`{ myAgents { id hasWebhookSecret } }`, {}, alice.apiKey);
    for (const text of [JSON.stringify(detail.body), JSON.stringify(list.body), JSON.stringify(gql)]) {
      expect(text).not.toContain(first.body.webhookSecret);
      expect(text).not.toContain(second.body.webhookSecret);
      expect(text).not.toContain('whsec_');
    }
    expect(detail.body.data.hasWebhookSecret).toBe(true);
  });

  it('lets only the owner rotate or remove it', async () => {
    expect((await server.api.post(`/v1/agents/${agentId}/webhook-secret`, { key: bob.apiKey })).status).toBe(403);
    expect((await server.api.delete(`/v1/agents/${agentId}/webhook-secret`, { key: bob.apiKey })).status).toBe(403);
    expect((await server.api.post('/v1/agents/agt_missing/webhook-secret', { key: alice.apiKey })).status).toBe(404);
  });

  it('removes it: hasWebhookSecret turns false', async () => {
    const res = await server.api.delete(`/v1/agents/${agentId}/webhook-secret`, { key: alice.apiKey });
    expect(res.status).toBe(200);
    expect(typeof res.body.message).toBe('string');
    const detail = await server.api.get(`/v1/agents/${agentId}`, { key: alice.apiKey });
    expect(detail.body.data.hasWebhookSecret).toBe(false);
    const stored = await server.prisma.agent.findUniqueOrThrow({ where: { id: agentId } });
    expect(stored.webhookSecretEnc).toBeNull();
  });
});

describe('endpoint addresses (SSRF)', () => {
  let strict: TestServer;
  let owner: { apiKey: string };
  beforeAll(async () => {
    strict = await startTestServer({ ALLOW_PRIVATE_ENDPOINTS: 'false' });
    owner = await strict.createUser();
  });
  afterAll(() => strict?.close());

  it.each([
    'http://127.0.0.1/x', 'http://127.1/x', 'http://2130706433/x', 'http://0x7f000001/x', 'http://0.0.0.0/x',
    'http://[::]/x', 'http://[::1]/x', 'http://[::ffff:127.0.0.1]/x', 'http://[::ffff:169.254.169.254]/x',
    'http://169.254.169.254/latest/meta-data', 'http://[fd00::1]/x', 'http://[fe80::1]/x', 'http://10.0.0.5/x',
    'http://172.16.3.4/x', 'http://192.168.0.10/x', 'http://100.64.1.1/x', 'http://224.0.0.1/x', 'http://localhost/x',
  ])('refuses %s', async (endpoint) => {
    const res = await strict.api.post('/v1/agents', { key: owner.apiKey, body: newAgent({ endpoint }) });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('endpoint');
  });

  it('accepts a public address, and refuses a private one on update too', async () => {
    const res = await strict.api.post('/v1/agents', { key: owner.apiKey, body: newAgent({ endpoint: 'https://93.184.216.34/hook' }) });
    expect(res.status).toBe(201);
    const update = await strict.api.put(`/v1/agents/${res.body.data.id}`, { key: owner.apiKey, body: { endpoint: 'http://127.1/x' } });
    expect(update.status).toBe(400);
    expect(update.body.error.field).toBe('endpoint');
  });
});
