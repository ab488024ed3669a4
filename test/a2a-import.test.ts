// Agents made from A2A agent cards served by @a2a-js/sdk's server: POST /v1/agents/import and
// POST /v1/agents/:id/refresh-card, signed cards (key from jku or embedded), and hostile cards refused
// with 400 or 422, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';
import { startSdkAgent, type SdkAgent } from './support/a2a-agent.js';

let server: TestServer;
let owner: { id: string; apiKey: string };
let other: { id: string; apiKey: string };
const agents: SdkAgent[] = [];

async function sdkAgent(opts: Parameters<typeof startSdkAgent>[0] = {}) {
  const agent = await startSdkAgent(opts);
  agents.push(agent);
  return agent;
}

const importCard = (cardUrl: unknown, key = owner.apiKey) => server.api.post('/v1/agents/import', { key, body: { cardUrl } });

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
  other = await server.createUser();
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await server?.close();
});

describe('import', () => {
  it('makes an agent of the card: name, description, version, provider, docs, icon, skills, interface, capabilities', async () => {
    const a2a = await sdkAgent({ name: 'Kestrel Translator', skills: [{ id: 'translate', name: 'Translate', tags: ['language', 'french'] }, { id: 'Summarize', name: 'Summarize', tags: ['text'] }] });
    const res = await importCard(a2a.cardUrl);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Kestrel Translator',
      slug: 'kestrel-translator',
      description: 'Translates text into French',
      version: '2.1.0',
      endpoint: `${a2a.url}/a2a/jsonrpc`,
      protocols: ['a2a'],
      capabilities: ['translate', 'summarize'],
      tags: ['language', 'french', 'text'],
      docsUrl: 'https://birdworks.example/docs',
      iconUrl: 'https://birdworks.example/icon.png',
      provider: { organization: 'Birdworks', url: 'https://birdworks.example' },
      manifestUrl: a2a.cardUrl,
      streaming: true,
      pushNotifications: true,
      cardVerified: false,
    });
    expect(res.body.data.card.name).toBe('Kestrel Translator');
    expect(typeof res.body.data.cardFetchedAt).toBe('string');
    // Discoverable like any agent.
    const found = await server.api.get('/v1/discover/kestrel-translator');
    expect(found.body.data).toMatchObject({ id: res.body.data.id, protocols: ['a2a'] });
  });

  it('verifies a signed card with the key from a jku on its own origin; a key embedded in the signature proves nothing', async () => {
    for (const [sign, verified] of [['jku', true], ['embedded', false]] as const) {
      const a2a = await sdkAgent({ name: `Signed ${sign}`, sign });
      const res = await importCard(a2a.cardUrl);
      expect(res.status).toBe(201);
      expect(res.body.data.cardVerified, sign).toBe(verified);
    }
  });

  it('refuses a signed card that was changed after signing (422)', async () => {
    const a2a = await sdkAgent({ name: 'Honest Heron', sign: 'jku' });
    const card = (await (await fetch(a2a.cardUrl)).json()) as Record<string, unknown>;
    a2a.serve('/tampered.json', { ...card, name: 'Dishonest Heron' });
    const res = await importCard(`${a2a.url}/tampered.json`);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'UNPROCESSABLE', field: 'cardUrl' });
    expect(res.body.error.message).toContain('signature does not verify');
    // A key set without the signing key does not verify either.
    a2a.serve('/jwks.json', { keys: [] });
    const noKey = await importCard(a2a.cardUrl);
    expect(noKey.status).toBe(422);
  });

  it('refreshes from the card it was made from, and only the owner may', async () => {
    const a2a = await sdkAgent({ name: 'Refresh Robin' });
    a2a.serve('/card.json', await (await fetch(a2a.cardUrl)).text());
    const created = await importCard(`${a2a.url}/card.json`);
    const id = created.body.data.id as string;
    const card = (await (await fetch(a2a.cardUrl)).json()) as Record<string, unknown>;
    a2a.serve('/card.json', { ...card, version: '3.0.0', skills: [{ id: 'paint', name: 'Paint', description: '', tags: ['art'] }] });
    const refreshed = await server.api.post(`/v1/agents/${id}/refresh-card`, { key: owner.apiKey });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data).toMatchObject({ id, version: '3.0.0', capabilities: ['paint'], tags: ['art'] });
    expect((await server.api.post(`/v1/agents/${id}/refresh-card`, { key: other.apiKey })).status).toBe(403);
    expect((await server.api.post('/v1/agents/agt_nope/refresh-card', { key: owner.apiKey })).status).toBe(404);
    // An agent registered by hand has no card to refresh.
    const plain = await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Plain Pigeon', endpoint: 'http://127.0.0.1:9/x' } });
    expect((await server.api.post(`/v1/agents/${plain.body.data.id}/refresh-card`, { key: owner.apiKey })).status).toBe(409);
    // A card that went bad is refused, and the agent keeps what it had.
    a2a.serve('/card.json', 'not json');
    expect((await server.api.post(`/v1/agents/${id}/refresh-card`, { key: owner.apiKey })).status).toBe(422);
    expect((await server.api.get(`/v1/agents/${id}`, { key: owner.apiKey })).body.data.version).toBe('3.0.0');
  });

  it('needs credentials and a cardUrl', async () => {
    expect((await server.api.post('/v1/agents/import', { body: { cardUrl: 'https://example.com/card.json' } })).status).toBe(401);
    const missing = await server.api.post('/v1/agents/import', { key: owner.apiKey, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.field).toBe('cardUrl');
    for (const bad of ['ftp://example.com/card.json', 'not a url', 'http://user:pw@example.com/card.json']) {
      const res = await importCard(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.field).toBe('cardUrl');
    }
  });
});

describe('hostile cards', () => {
  let host: SdkAgent;
  beforeAll(async () => {
    host = await sdkAgent({ name: 'Host' });
  });

  const base = () => JSON.parse(JSON.stringify({ name: 'Hostile', description: 'x', supportedInterfaces: [{ url: `${host.url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] }));

  it.each([
    ['huge', () => JSON.stringify({ ...base(), description: 'x'.repeat(300 * 1024) }), 'larger than'],
    ['deeply nested', () => JSON.stringify({ ...base(), extra: JSON.parse('['.repeat(500) + ']'.repeat(500)) }), 'nested'],
    ['not JSON', () => '{"name":', 'not JSON'],
    ['an array', () => '[]', 'JSON object'],
    ['a name of the wrong type', () => JSON.stringify({ ...base(), name: 5 }), 'card.name'],
    ['skills of the wrong type', () => JSON.stringify({ ...base(), skills: 'all' }), 'card.skills'],
    ['too many skills', () => JSON.stringify({ ...base(), skills: Array.from({ length: 500 }, (_, i) => ({ id: `s${i}` })) }), 'card.skills'],
    ['no JSON-RPC interface', () => JSON.stringify({ name: 'No interface', supportedInterfaces: [{ url: 'https://x.example/grpc', protocolBinding: 'GRPC' }] }), 'JSON-RPC'],
    ['an interface URL with credentials', () => JSON.stringify({ ...base(), supportedInterfaces: [{ url: 'http://a:b@x.example/rpc', protocolBinding: 'JSONRPC' }] }), 'interface'],
    ['a NUL character', () => JSON.stringify({ ...base(), name: 'a\u0000b' }), 'NUL'],
    ['a signature that is garbage', () => JSON.stringify({ ...base(), signatures: [{ protected: 'e30', signature: 'AAAA' }] }), 'signature'],
  ])('refuses a card that is %s with 422', async (_what, body, words) => {
    host.serve('/hostile.json', body());
    const res = await importCard(`${host.url}/hostile.json`);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('UNPROCESSABLE');
    expect(res.body.error.message).toContain(words);
  });

  it('refuses a card URL that does not answer 2xx, or does not answer', async () => {
    host.serve('/gone.json', '{}', 404);
    expect((await importCard(`${host.url}/gone.json`)).status).toBe(422);
    expect((await importCard('http://127.0.0.1:9/card.json')).status).toBe(422);
  });
});

describe('address policy', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer({ ALLOW_PRIVATE_ENDPOINTS: 'false' });
  });
  afterAll(() => strict?.close());

  it('refuses a card URL on a private address with 400 naming cardUrl', async () => {
    const user = await strict.createUser();
    for (const url of ['http://127.0.0.1:8080/card.json', 'http://10.0.0.7/card.json', 'http://localhost/card.json', 'http://[::1]/card.json']) {
      const res = await strict.api.post('/v1/agents/import', { key: user.apiKey, body: { cardUrl: url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.field).toBe('cardUrl');
    }
  });
});
