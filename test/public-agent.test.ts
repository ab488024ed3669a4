// Anyone may read an agent through discovery, but only as a PublicAgent; the owner's Agent type keeps
// the configuration and the raw trust score. WebSocket refusals close with 4401/4403, never with 4500.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { beforeAll, describe, expect, it } from 'vitest';
import { test, type TestUser } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let server: TestServer;
let owner: TestUser;
let requester: TestUser;
let agentId: string;

const publicFields = [
  'id', 'name', 'slug', 'description', 'protocols', 'categories', 'capabilities', 'tags', 'endpoint', 'docsUrl', 'authType', 'version', 'status',
  'longDescription', 'verified', 'healthStatus', 'inputSchema', 'twitterUrl', 'taskCount', 'avgRating', 'createdAt', 'updatedAt',
  'priceCents', 'trustTier', 'stats',
  // For the directory's cards and the agent page: the owner's name (never the email), an https icon,
  // the counts behind the figures and tasks per day.
  'ownerName', 'iconUrl', 'completedCount', 'failedCount', 'ratingCount', 'daily',
  // How it takes tasks (push to its endpoint, or pull): shown in discovery (docs/pull.md).
  'deliveryMode',
].sort();
const ownerOnly = ['hasWebhookSecret', 'manifestUrl', 'trustScore'];
const itemFields = ['id', 'name', 'slug', 'description', 'protocols', 'categories', 'capabilities', 'tags', 'endpoint', 'deliveryMode', 'docsUrl', 'authType', 'version', 'status'];
const detailFields = [...itemFields, 'longDescription', 'verified', 'healthStatus', 'inputSchema', 'twitterUrl', 'taskCount', 'avgRating', 'createdAt', 'updatedAt', 'stats'];

test.beforeAll(async ({ server: s, owner: o, requester: r }) => {
  [server, owner, requester] = [s, o, r];
  const created = await server.api.post('/v1/agents', {
    key: owner.apiKey,
    body: { name: 'Public Face', endpoint: 'http://127.0.0.1:9/x', manifestUrl: 'https://example.com/manifest.json', capabilities: ['face'], priceCents: 0 },
  });
  agentId = created.body.data.id;
  await server.api.post(`/v1/agents/${agentId}/webhook-secret`, { key: owner.apiKey });
});

describe('PublicAgent', () => {
  it('carries exactly the public field set', async () => {
    const res = await server.api.graphql('{ __type(name: "PublicAgent") { fields { name } } }');
    expect(res.errors).toBeUndefined();
    expect((res.data.__type.fields as Array<{ name: string }>).map((f) => f.name).sort()).toEqual(publicFields);
  });

  it.each(ownerOnly)('agent(slugOrId) and discover do not answer %s, with or without credentials', async (field) => {
    for (const key of [undefined, requester.apiKey, owner.apiKey]) {
      for (const query of [`{ agent(slugOrId: "public-face") { id ${field} } }`, `{ discover { data { id ${field} } } }`]) {
        const res = await server.api.graphql(query, {}, key);
        expect(res.data ?? null).toBeNull();
        expect(res.errors?.[0]?.message).toContain(`Cannot query field "${field}" on type "PublicAgent"`);
      }
    }
  });

  it('answers the public fields to anyone', async () => {
    const res = await server.api.graphql('{ agent(slugOrId: "public-face") { id priceCents trustTier stats { recentTasks } } }');
    expect(res.errors).toBeUndefined();
    expect(res.data.agent).toEqual({ id: agentId, priceCents: 0, trustTier: 'unrated', stats: { recentTasks: 0 } });
  });

  it('is what routing dry-runs and credit balances show of other owners\' agents', async () => {
    const route = await server.api.graphql('mutation { routeTask(input: { capabilities: ["face"] }) { agent { trustScore } } }', {}, requester.apiKey);
    expect(route.errors?.[0]?.message).toContain('on type "PublicAgent"');
    const billing = await server.api.graphql('{ billing { credits { agent { hasWebhookSecret } } } }', {}, requester.apiKey);
    expect(billing.errors?.[0]?.message).toContain('on type "PublicAgent"');
  });

  it('leaves the owner type whole', async () => {
    const res = await server.api.graphql(`query($id: ID!) { myAgent(id: $id) { ${ownerOnly.join(' ')} } }`, { id: agentId }, owner.apiKey);
    expect(res.errors).toBeUndefined();
    expect(res.data.myAgent).toEqual({ hasWebhookSecret: true, manifestUrl: 'https://example.com/manifest.json', trustScore: expect.any(Number) });
  });

  it('keeps the REST field sets of the spec', async () => {
    const list = await server.api.get('/v1/discover?q=public');
    expect(Object.keys(list.body.data[0]).sort()).toEqual([...itemFields].sort());
    const detail = await server.api.get('/v1/discover/public-face');
    expect(Object.keys(detail.body.data).sort()).toEqual([...detailFields].sort());
    const route = await server.api.post('/v1/tasks/route', { key: requester.apiKey, body: { capabilities: ['face'] } });
    expect(Object.keys(route.body.data[0]).sort()).toEqual([...itemFields, 'priceCents', 'trustTier', 'healthStatus', 'score', 'terms'].sort());
  });
});

describe('WebSocket refusals', () => {
  function wsClient(authorization?: string): { client: Client; closed: Promise<{ code: number; reason: string }> } {
    let onClosed: (e: { code: number; reason: string }) => void = () => {};
    const closed = new Promise<{ code: number; reason: string }>((resolve) => (onClosed = resolve));
    const client = createClient({
      url: `${server.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: authorization ? { authorization } : {},
      retryAttempts: 0,
      lazy: true,
      on: { closed: (event) => onClosed(event as { code: number; reason: string }) },
    });
    return { client, closed };
  }

  // Runs one operation to its end; the errors it got (GraphQL errors, or the close event).
  function once(client: Client, query: string, variables: Record<string, unknown> = {}) {
    return new Promise<{ errors: unknown; data: unknown }>((resolve) => {
      let data: unknown = null;
      const unsubscribe = client.subscribe({ query, variables }, {
        next: (value) => {
          data = value.data ?? null;
          if (value.errors) {
            unsubscribe();
            resolve({ errors: value.errors, data });
          }
        },
        error: (errors) => resolve({ errors, data }),
        complete: () => resolve({ errors: null, data }),
      });
    });
  }

  const watch = 'subscription($id: ID!) { taskUpdated(id: $id) { status } }';
  let taskId: string;
  beforeAll(async () => {
    const task = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Watched', description: 'd', agentId, expiresInMinutes: 30 } });
    taskId = task.body.data.id;
  });

  it('closes with 4401 when the credentials do not verify, without an internal message', async () => {
    for (const authorization of ['Bearer tmk_not-a-real-key', 'Basic abc', 'Bearer ']) {
      const { client, closed } = wsClient(authorization);
      const result = await once(client, watch, { id: taskId });
      const event = await closed;
      await client.dispose();
      expect(event.code).toBe(4401);
      expect(event.reason).toBe('Unauthorized');
      expect((result.errors as { code?: number }).code).toBe(4401);
    }
  });

  it('refuses an anonymous or a stranger\'s subscription with a coded error, never a 4500 close', async () => {
    const stranger = await server.createUser();
    for (const [authorization, code] of [[undefined, 'UNAUTHENTICATED'], [`Bearer ${stranger.apiKey}`, 'FORBIDDEN']] as const) {
      const { client, closed } = wsClient(authorization);
      const result = await once(client, watch, { id: taskId });
      expect(JSON.stringify(result.errors)).toContain(code);
      // The socket stays usable for an operation the caller may run.
      const fine = await once(client, '{ discover { total } }');
      expect(fine.errors).toBeNull();
      await client.dispose();
      expect((await closed).code).not.toBe(4500);
    }
  });

  it('answers a malformed or oversized operation with coded errors, not a 4500 close', async () => {
    const { client, closed } = wsClient(`Bearer ${requester.apiKey}`);
    const syntax = await once(client, 'subscription { taskUpdated(');
    expect(JSON.stringify(syntax.errors)).toContain('Syntax Error');
    const tooMany = await once(client, `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: discover { total }`).join(' ')} }`);
    expect(JSON.stringify(tooMany.errors)).toContain('QUERY_TOO_COMPLEX');
    const nul = await once(client, 'subscription($id: ID!) { taskUpdated(id: $id) { status } }', { id: 'a\u0000' });
    expect(JSON.stringify(nul.errors)).toContain('INVALID_INPUT');
    await client.dispose();
    expect((await closed).code).not.toBe(4500);
  });
});
