// The OpenAPI document of /v1: it validates as OpenAPI 3.1, covers every route, and every answer the
// running service gives across the main flows (agents, tasks, callbacks, discovery, billing, errors)
// conforms to it (Ajv against the response schemas).
import { Validator } from '@seriousme/openapi-schema-validator';
import { createHash } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../src/rest/routes/index.js';
import { testWithMailbox } from './support/fixtures.js';
import type { Mailbox } from './support/mailbox.js';
import type { TestServer } from './support/server.js';
import { callBack, startTestAgent, waitForStatus, type TestAgent } from './support/agent.js';
import { startSdkAgent } from './support/a2a-agent.js';
import type { ApiResponse, CallOptions } from './support/http.js';
import { until } from './support/wait.js';
import { softAuthenticator } from './support/soft-authenticator.js';

type Operation = { responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }> };
type OpenApi = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } };

let server: TestServer;
let agentHttp: TestAgent;
// Sign-in links, caught by the file's mailbox.
let mailbox: Mailbox;
let doc: OpenApi;
// `mediaType`: the answer's, for answers that are not JSON (a file's bytes, kept as a latin1 string).
const seen: Array<{ method: string; template: string; status: number; body: unknown; mediaType?: string }> = [];

// The template of a concrete path (`/v1/tasks/tsk_1/accept` → `/v1/tasks/{id}/accept`), fixed segments first.
function templateOf(path: string, method: string): string | null {
  const candidates = Object.keys(doc.paths).filter((t) => {
    if (!doc.paths[t]![method]) return false;
    const a = t.split('/');
    const b = path.split('/');
    return a.length === b.length && a.every((s, i) => s.startsWith('{') || s === b[i]);
  });
  candidates.sort((x, y) => x.split('{').length - y.split('{').length);
  return candidates[0] ?? null;
}

async function call(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse> {
  const res = await server.api.call(method, path, opts);
  const bare = path.split('?')[0]!;
  const template = templateOf(bare, method.toLowerCase());
  if (template) seen.push({ method: method.toLowerCase(), template, status: res.status, body: res.body });
  return res;
}

// A call whose body or answer may be bytes (the file routes), recorded like the JSON ones.
async function callRaw(method: string, path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: any; bytes: Buffer }> {
  const res = await fetch(`${server.url}${path}`, { ...init, method });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  const json = type.startsWith('application/json');
  const body = json ? JSON.parse(bytes.toString('utf8')) : bytes.toString('latin1');
  const template = templateOf(path.split('?')[0]!, method.toLowerCase());
  if (template) seen.push({ method: method.toLowerCase(), template, status: res.status, body, ...(json ? {} : { mediaType: type }) });
  return { status: res.status, headers: res.headers, body, bytes };
}

// A small FILE_MAX_BYTES, to meet the file routes' 413; sign-in links go to the file's mailbox.
const test = testWithMailbox({ FILE_MAX_BYTES: '65536', DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'openapi-')) });

test.beforeAll(async ({ server: s, mailbox: m }) => {
  [server, mailbox] = [s, m];
  agentHttp = await startTestAgent();
  const res = await server.api.get('/v1/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body as OpenApi;
});
afterAll(async () => {
  await agentHttp?.close();
});

describe('the document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has an operation for every route of the table, with its request body', () => {
    for (const route of routes) {
      const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()] as Record<string, unknown> | undefined;
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(Boolean(op!.requestBody)).toBe(Boolean(route.request?.body));
    }
    expect(doc.paths['/v1/webhooks/stripe']?.post).toBeDefined();
    // Limits come from the services' zod schemas, types from GraphQL.
    const schemas = (doc.components as unknown as { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> }).schemas;
    expect(schemas.CreateTaskInput!.properties.title).toMatchObject({ type: 'string', minLength: 1, maxLength: 200 });
    expect(schemas.AgentCreateInput!.properties.priceCents).toMatchObject({ minimum: 0, maximum: 100_000_000 });
    expect(doc.paths['/v1/discover']!.get!).toMatchObject({ parameters: expect.arrayContaining([expect.objectContaining({ name: 'per_page', in: 'query' })]) });
  });
});

describe('every route of the router', () => {
  it('is an operation of the document', () => {
    const routes = server.app.routes;
    expect(routes.length).toBeGreaterThan(60);
    const missing = routes.filter((r) => !doc.paths[r.path.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    for (const path of ['/v1/auth/sign-up', '/oauth/token', '/.well-known/jwks.json', '/.well-known/oauth-authorization-server', '/v1/files', '/v1/webhooks/stripe']) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });

  it('documents the built-in endpoints and every path the other protocols answer, under the template they log', () => {
    const documented = (method: string, template: string) => Boolean(doc.paths[template.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()]);
    // The router's own endpoints beside its routes: GraphQL over HTTP (and SSE); health and metrics are routes.
    for (const [method, path] of [['GET', '/healthz'], ['GET', '/readyz'], ['GET', '/metrics'], ['GET', '/graphql'], ['POST', '/graphql']] as const) {
      expect(documented(method, path), `${method} ${path}`).toBe(true);
    }
    const protocols = server.app.protocols;
    expect(protocols.length).toBeGreaterThanOrEqual(2);
    const request = (method: string) => ({ method, headers: {} }) as never;
    const missing: string[] = [];
    for (const protocol of protocols) {
      expect(protocol.operations.length).toBeGreaterThan(0);
      for (const op of protocol.operations) {
        // Each operation is one the protocol answers: a path of its template is matched, under that template.
        const sample = op.path.replace(/:(\w+)/g, 'sample');
        expect(protocol.match(sample, request(op.method)), `${op.method} ${op.path}`).toBe(op.path);
        if (!documented(op.method, op.path)) missing.push(`${op.method} ${op.path}`);
      }
    }
    // Every path the protocols answer, as a client sends it, is documented under the template it is logged as.
    for (const [method, path] of [
      ['POST', '/mcp'],
      ['POST', '/a2a'],
      ['GET', '/.well-known/agent-card.json'],
      ['POST', '/a2a/agents/some-agent'],
      ['GET', '/a2a/agents/some-agent/.well-known/agent-card.json'],
    ] as const) {
      const template = protocols.map((p) => p.match(path, request(method))).find((t) => t !== null);
      expect(template, path).toBeTruthy();
      if (!documented(method, template!)) missing.push(`${method} ${path}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('real answers conform to the document', () => {
  it('across agents, tasks, callbacks, discovery, billing and errors', async () => {
    const owner = await server.createUser();
    const requester = await server.createUser();
    const o = { key: owner.apiKey };
    const r = { key: requester.apiKey };

    // Agents
    const agent = (await call('POST', '/v1/agents', { ...o, body: { name: 'Contract Agent', endpoint: agentHttp.url, capabilities: ['contract'], priceCents: 0, description: 'Checks contracts' } })).body.data;
    await call('GET', '/v1/agents', o);
    await call('GET', `/v1/agents/${agent.id}`, o);
    await call('PUT', `/v1/agents/${agent.id}`, { ...o, body: { description: 'Checks contracts carefully' } });
    agentHttp.secret = (await call('POST', `/v1/agents/${agent.id}/webhook-secret`, o)).body.webhookSecret;
    // Endpoint operations (issue 22)
    await call('POST', `/v1/agents/${agent.id}/webhook/test`, o);
    await call('POST', `/v1/agents/${agent.id}/webhook/check`, o);
    await call('POST', `/v1/agents/${agent.id}/endpoint/enable`, o); // 409: the endpoint is active
    await server.prisma.agent.update({ where: { id: agent.id }, data: { deliveryState: 'disabled', endpointDisabledAt: new Date(Date.now() - 60_000) } });
    await call('POST', `/v1/agents/${agent.id}/webhook/test`, o);
    await call('POST', `/v1/agents/${agent.id}/endpoint/enable`, o);
    await call('PUT', '/v1/account', { ...o, body: { notificationUrl: agentHttp.url } });
    await call('PUT', '/v1/account', { ...o, body: { notificationUrl: null } });
    await call('GET', '/v1/notifications?limit=5', o);
    await call('GET', `/v1/requesters/${requester.id}/record`, o);
    await call('DELETE', `/v1/agents/${agent.id}/webhook-secret`, o);
    const spare = (await call('POST', '/v1/agents', { ...o, body: { name: 'Spare', endpoint: agentHttp.url } })).body.data;
    await call('DELETE', `/v1/agents/${spare.id}`, o);
    // An agent made from an A2A card (an @a2a-js/sdk server), then refreshed from it.
    const a2a = await startSdkAgent({ name: 'Card Agent' });
    const imported = (await call('POST', '/v1/agents/import', { ...o, body: { cardUrl: a2a.cardUrl } })).body.data;
    await call('POST', `/v1/agents/${imported.id}/refresh-card`, o);
    await a2a.close();

    // Discovery
    await call('GET', '/v1/discover?q=contract&capability=contract&per_page=5');
    await call('GET', `/v1/discover/${agent.slug}`);

    // Health and metrics, GraphQL over HTTP, MCP and A2A.
    expect((await call('GET', '/healthz')).status).toBe(200);
    expect((await call('GET', '/readyz')).status).toBe(200);
    expect((await callRaw('GET', '/metrics')).status).toBe(200);
    expect((await call('GET', '/graphql?query=%7B__typename%7D', r)).status).toBe(200);
    expect((await call('POST', '/graphql', { ...r, body: { query: 'query { __typename }' } })).status).toBe(200);
    const mcpHeaders = { accept: 'application/json, text/event-stream' };
    expect((await call('POST', '/mcp', { ...r, headers: mcpHeaders, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } })).status).toBe(200);
    expect((await call('GET', '/.well-known/agent-card.json')).status).toBe(200);
    expect((await call('GET', `/a2a/agents/${agent.slug}/.well-known/agent-card.json`)).status).toBe(200);
    const getTask = { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'tsk_missing' } };
    const a2aHeaders = { 'a2a-version': '1.0' };
    expect((await call('POST', '/a2a', { ...r, headers: a2aHeaders, body: getTask })).status).toBe(200);
    expect((await call('POST', `/a2a/agents/${agent.slug}`, { ...r, headers: a2aHeaders, body: getTask })).status).toBe(200);

    // Tasks: one finished by the callback, one by the owner's moves, one failed, one cancelled, one rated.
    agentHttp.onDelivery((d) => void callBack(d, { result: { verdict: 'ok' } }));
    const t1 = (await call('POST', '/v1/tasks', { ...r, headers: { 'idempotency-key': 'contract-1' }, body: { title: 'One', description: 'first', agentId: agent.id } })).body.data;
    await waitForStatus(() => call('GET', `/v1/tasks/${t1.id}`, r).then((x) => x.body.data), ['completed']);
    const [delivery] = (await call('GET', `/v1/agents/${agent.id}/deliveries?limit=5`, o)).body.data;
    await call('POST', `/v1/agents/${agent.id}/deliveries/${delivery.id}/redeliver`, o); // 409: the task is finished
    await call('POST', `/v1/tasks/${t1.id}/rating`, { ...r, body: { rating: 5 } });
    await call('POST', `/v1/tasks/${t1.id}/callback`, { body: { taskToken: 'not-the-token', result: {} } }); // 401

    agentHttp.onDelivery(null);
    agentHttp.respondWith([500]);
    const t2 = (await call('POST', '/v1/tasks', { ...r, body: { title: 'Two', description: 'second', agentId: agent.id } })).body.data;
    await agentHttp.waitFor(2);
    const pending = (await call('GET', `/v1/agents/${agent.id}/deliveries`, o)).body.data.find((d: { taskId: string }) => d.taskId === t2.id);
    await call('POST', `/v1/agents/${agent.id}/deliveries/${pending.id}/redeliver`, o);
    await call('POST', `/v1/agents/${agent.id}/deliveries/recover`, { ...o, body: { since: new Date(Date.now() - 3_600_000).toISOString() } });
    // The agent answers on the callback with the token its (failed) delivery carried.
    const t5 = (await call('POST', '/v1/tasks', { ...r, body: { title: 'Five', description: 'fifth', agentId: agent.id } })).body.data;
    const sent5 = await until('the fifth delivery', () => agentHttp.received.find((d) => d.body.taskId === t5.id));
    // Files: the agent adds a result file with the task token (and not without it).
    const resultUpload = (token: string) =>
      callRaw('POST', `/v1/tasks/${t5.id}/files?filename=notes.txt`, { headers: { 'x-task-token': token, 'content-type': 'text/plain' }, body: 'partial notes' });
    expect((await resultUpload(sent5.body.taskToken)).status).toBe(201);
    expect((await resultUpload('not-the-token')).status).toBe(401);
    expect((await call('POST', `/v1/tasks/${t5.id}/callback`, { body: { taskToken: sent5.body.taskToken, error: 'no can do' } })).status).toBe(200);
    // A finished task takes no more result files: its own token is told 409 (documented), not 401.
    expect((await resultUpload(sent5.body.taskToken)).status).toBe(409);
    await call('PATCH', `/v1/tasks/${t2.id}/accept`, o);
    await call('PATCH', `/v1/tasks/${t2.id}/start`, o);
    await call('PATCH', `/v1/tasks/${t2.id}/complete`, { ...o, body: { result: { text: 'done' } } });
    const t3 = (await call('POST', '/v1/tasks', { ...r, body: { title: 'Three', description: 'third', agentId: agent.id } })).body.data;
    await call('PATCH', `/v1/tasks/${t3.id}/fail`, { ...o, body: { error: 'cannot' } });
    const t4 = (await call('POST', '/v1/tasks', { ...r, body: { title: 'Four', description: 'fourth', agentId: agent.id } })).body.data;
    await call('POST', `/v1/tasks/${t4.id}/cancel`, r);
    await call('GET', '/v1/tasks?role=requester&limit=2', r);
    await call('GET', '/v1/tasks?role=agent', o);
    await call('POST', '/v1/tasks/route', { ...r, body: { capabilities: ['contract'] } });

    // Trust: an input round, a review approved, one rejected and refunded, one rejected and contested.
    const reviewed = async (title: string) => {
      const task = (await call('POST', '/v1/tasks', { ...r, body: { title, description: 'reviewed', agentId: agent.id, reviewWindowSeconds: 600 } })).body.data;
      await until(`${title} delivered`, () => agentHttp.received.find((d) => d.body.taskId === task.id));
      await call('PATCH', `/v1/tasks/${task.id}/accept`, o);
      return task;
    };
    const t6 = await reviewed('Six');
    await call('POST', `/v1/tasks/${t6.id}/request-input`, { ...o, body: { message: 'Which one?', inputSchema: { type: 'object' } } });
    await call('POST', `/v1/tasks/${t6.id}/input`, { ...r, body: { input: { which: 'first' } } });
    await call('PATCH', `/v1/tasks/${t6.id}/complete`, { ...o, body: { result: { text: 'done' } } });
    await call('POST', `/v1/tasks/${t6.id}/approve`, r);
    await call('GET', `/v1/tasks/${t6.id}/history`, r);
    const t7 = await reviewed('Seven');
    await call('PATCH', `/v1/tasks/${t7.id}/complete`, { ...o, body: { result: { text: 'meh' } } });
    await call('POST', `/v1/tasks/${t7.id}/reject`, { ...r, body: { reason: 'Not what I asked' } });
    await call('POST', `/v1/tasks/${t7.id}/refund`, o);
    const t8 = await reviewed('Eight');
    await call('PATCH', `/v1/tasks/${t8.id}/complete`, { ...o, body: { result: { text: 'right' } } });
    await call('POST', `/v1/tasks/${t8.id}/reject`, { ...r, body: { reason: 'Wrong' } });
    await call('POST', `/v1/tasks/${t8.id}/contest`, { ...o, body: { statement: 'It is right' } });

    // API keys, and an app connected through OAuth (the consent's answer as the consent page sends it).
    const newKey = (await call('POST', '/v1/api-keys', { ...r, body: { name: 'reader', scopes: ['tasks:read'] } })).body.data;
    await call('GET', '/v1/api-keys', r);
    await call('DELETE', `/v1/api-keys/${newKey.id}`, r);
    const redirect = 'http://127.0.0.1:9/cb';
    const verifier = 'a-verifier-of-the-contract-app-at-least-43-characters';
    const app = (await callRaw('POST', '/oauth/register', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Contract App', redirect_uris: [redirect] }) })).body as { client_id: string };
    const consent = { responseType: 'code', clientId: app.client_id, redirectUri: redirect, codeChallenge: createHash('sha256').update(verifier).digest('base64url'), codeChallengeMethod: 'S256' };
    const decided = await server.api.post('/graphql', { ...r, body: { query: 'mutation ($q: OAuthAuthorizationRequest!) { decideOAuthAuthorization(request: $q, allow: true) }', variables: { q: consent } } });
    const code = new URL(decided.body.data.decideOAuthAuthorization).searchParams.get('code')!;
    const formPost = (path: string, fields: Record<string, string>) =>
      callRaw('POST', path, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    const tokenForm = { grant_type: 'authorization_code', client_id: app.client_id, code, redirect_uri: redirect, code_verifier: verifier };
    const tokens = await formPost('/oauth/token', tokenForm);
    expect(tokens.status).toBe(200);
    // OAuth's errors in RFC 6749's shape, with their statuses: an unknown app, a code that is not one.
    const unknownApp = await formPost('/oauth/revoke', { token: 'not-a-token', client_id: 'no-such-app' });
    expect([unknownApp.status, unknownApp.body.error]).toEqual([401, 'invalid_client']);
    const notACode = await formPost('/oauth/token', { ...tokenForm, code: 'not-a-code' });
    expect([notACode.status, notACode.body.error]).toEqual([400, 'invalid_grant']);
    for (const document of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource/a2a', '/.well-known/jwks.json']) {
      expect((await call('GET', document)).status).toBe(200);
    }
    expect((await callRaw('GET', '/docs/api')).status).toBe(200);
    await call('GET', '/v1/account/apps', r);
    await call('DELETE', `/v1/account/apps/${app.client_id}`, r);
    expect((await formPost('/oauth/revoke', { token: tokens.body.access_token, client_id: app.client_id })).status).toBe(200);

    // Billing, on the simulated processor: a paid agent and a task held on a card until confirmed.
    const paid = (await call('POST', '/v1/agents', { ...o, body: { name: 'Paid', endpoint: agentHttp.url, priceCents: 300 } })).body.data;
    await call('GET', '/v1/billing', r);
    await call('POST', '/v1/billing/setup-intent', r);
    await call('POST', '/v1/billing/connect', o);
    const held = await call('POST', '/v1/tasks', { ...r, body: { title: 'Held', description: 'on a card', agentId: paid.id } });
    await call('POST', '/v1/billing/simulate/confirm', { ...r, body: { clientSecret: held.body.clientSecret } });
    await call('POST', '/v1/billing/payment-method', { ...r, body: { paymentMethodId: 'pm_card_visa' } });
    await call('POST', '/v1/credits', { ...r, headers: { 'idempotency-key': 'credits-1' }, body: { agentId: paid.id, quantity: 2 } });
    await call('POST', '/v1/tasks', { ...r, body: { title: 'Charged', description: 'saved card', agentId: paid.id } });

    // A pulling agent: a claim, a lease extended, a task given back and claimed again, answered.
    const puller = (await call('POST', '/v1/agents', { ...o, body: { name: 'Puller', deliveryMode: 'pull' } })).body.data;
    const pulled = (await call('POST', '/v1/tasks', { ...r, body: { title: 'Pulled', description: 'claimed', input: { n: 1 }, agentId: puller.id } })).body.data;
    expect((await call('POST', `/v1/agents/${puller.id}/tasks/claim`, { ...o, body: { max: 1, waitSeconds: 0 } })).body.data).toHaveLength(1);
    await call('POST', `/v1/agents/${puller.id}/tasks/${pulled.id}/lease`, { ...o, body: { leaseSeconds: 60 } });
    await call('POST', `/v1/agents/${puller.id}/tasks/${pulled.id}/release`, o);
    const [again] = (await call('POST', `/v1/agents/${puller.id}/tasks/claim`, { ...o, body: {} })).body.data;
    await call('POST', `/v1/tasks/${pulled.id}/callback`, { body: { taskToken: again.taskToken, result: { ok: true } } });
    await call('POST', `/v1/agents/${puller.id}/signing-key`, { ...o, body: { graceSeconds: 60 } });
    const receipt = (await call('GET', `/v1/tasks/${pulled.id}`, r)).body.data.receipt;
    expect((await call('POST', '/v1/receipts/verify', { body: { receipt } })).body.data.valid).toBe(true);

    // Files: raw and multipart uploads, a download whole, a range of it, a range past it, someone else's,
    // a signed link that is not valid, and the errors of uploads.
    const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
    const pdf = await callRaw('POST', '/v1/files?filename=contract.pdf', { headers: { ...bearer(requester.apiKey), 'content-type': 'application/pdf' }, body: '%PDF-1.4 a contract' });
    expect(pdf.status).toBe(201);
    const form = new FormData();
    form.append('file', new Blob(['some notes'], { type: 'text/plain' }), 'notes.txt');
    expect((await callRaw('POST', '/v1/files', { headers: bearer(requester.apiKey), body: form })).status).toBe(201);
    const whole = await callRaw('GET', `/v1/files/${pdf.body.data.id}`, { headers: bearer(requester.apiKey) });
    expect(whole.bytes.toString()).toBe('%PDF-1.4 a contract');
    const part = await callRaw('GET', `/v1/files/${pdf.body.data.id}`, { headers: { ...bearer(requester.apiKey), range: 'bytes=0-7' } });
    expect([part.status, part.bytes.toString(), part.headers.get('content-range')]).toEqual([206, '%PDF-1.4', 'bytes 0-7/19']);
    expect((await callRaw('GET', `/v1/files/${pdf.body.data.id}`, { headers: { ...bearer(requester.apiKey), range: 'bytes=500-' } })).status).toBe(416);
    expect((await callRaw('GET', `/v1/files/${pdf.body.data.id}`, { headers: bearer(owner.apiKey) })).status).toBe(404);
    expect((await callRaw('GET', `/v1/files/${pdf.body.data.id}?expires=99999999999&sig=bm90LWl0`)).status).toBe(403);
    expect((await callRaw('POST', '/v1/files?filename=x.txt', { headers: { 'content-type': 'text/plain' }, body: 'x' })).status).toBe(401);
    expect((await callRaw('POST', '/v1/files', { headers: { ...bearer(requester.apiKey), 'content-type': 'multipart/form-data' }, body: 'x' })).status).toBe(400);
    expect((await callRaw('POST', '/v1/files?filename=big.bin', { headers: bearer(requester.apiKey), body: new Uint8Array(70_000) })).status).toBe(413);

    // Signing in, as the dashboard's pages do: a passkey sign-up, a passkey sign-in, a link by email and
    // a pasted key; then the account's passkeys and sessions, and signing out.
    const browser = { 'sec-fetch-site': 'same-origin' };
    const origin = new URL(server.app.services.deps.urls.base).origin;
    const authenticator = softAuthenticator(origin);
    const cookieOf = (res: ApiResponse) => res.headers.get('set-cookie')!.split(';')[0]!;
    await call('GET', '/v1/auth/options');
    const signUpOptions = await call('POST', '/v1/auth/sign-up/options', { headers: browser, body: { name: 'Contract Person', email: 'contract-person@example.com' } });
    expect((await call('POST', '/v1/auth/sign-up', { headers: browser, body: { credential: authenticator.register(signUpOptions.body.data) } })).status).toBe(201);
    const signInOptions = await call('POST', '/v1/auth/passkey/options', { headers: browser });
    const signedIn = await call('POST', '/v1/auth/passkey', { headers: browser, body: { credential: authenticator.signIn(signInOptions.body.data) } });
    expect(signedIn.status).toBe(200);
    const session = { ...browser, cookie: cookieOf(signedIn) };
    await call('POST', '/v1/auth/email-link', { headers: browser, body: { email: 'contract-person@example.com' } });
    const mail = await mailbox.mailTo('contract-person@example.com');
    const linkToken = /#token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    await call('POST', '/v1/auth/email-link/describe', { headers: browser, body: { token: linkToken } });
    expect((await call('POST', '/v1/auth/email-link/sign-in', { headers: browser, body: { token: linkToken } })).status).toBe(200);
    const keySession = async () => ({ ...browser, cookie: cookieOf(await call('POST', '/v1/auth/api-key-session', { headers: browser, body: { apiKey: requester.apiKey } })) });
    const [first, second] = [await keySession(), await keySession()];
    await call('GET', '/v1/account/passkeys', { headers: session });
    const addOptions = await call('POST', '/v1/account/passkeys/options', { headers: session });
    const added = await call('POST', '/v1/account/passkeys', { headers: session, body: { credential: authenticator.register(addOptions.body.data), name: 'Second' } });
    expect(added.status).toBe(201);
    expect((await call('DELETE', `/v1/account/passkeys/${added.body.data.id}`, { headers: session })).status).toBe(204);
    const sessions = (await call('GET', '/v1/account/sessions', { headers: second })).body.data;
    const firstId = sessions.find((s: { current: boolean }) => !s.current).id;
    expect((await call('DELETE', `/v1/account/sessions/${firstId}`, { headers: second })).status).toBe(204);
    expect((await call('POST', '/v1/auth/sign-out', { headers: session })).status).toBe(204);
    expect((await call('DELETE', '/v1/account/sessions', { headers: second })).status).toBe(200);
    expect((await call('GET', '/v1/account/sessions', { headers: first })).status).toBe(401);

    // Errors
    await call('POST', '/v1/agents', { ...o, body: { name: 'x' } }); // 400
    await call('GET', '/v1/agents'); // 401
    await call('GET', `/v1/agents/${agent.id}`, r); // 403
    await call('GET', '/v1/tasks/tsk_missing', r); // 404
    await call('PATCH', `/v1/tasks/${t4.id}/accept`, o); // 409
    await call('POST', '/v1/tasks', { ...r, body: 'title=x', headers: { 'content-type': 'text/plain' } }); // 415
    await call('POST', '/v1/tasks', { ...r, headers: { 'idempotency-key': 'contract-1' }, body: { title: 'Other', description: 'body', agentId: agent.id } }); // 422
    await call('GET', '/v1/discover?per_page=1000'); // 400

    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d\d-\d\dT/.test(s));
    // A file's bytes, as recorded (one character per byte); without this Ajv would pass any string unchecked.
    ajv.addFormat('binary', { type: 'string', validate: (s: string) => Buffer.from(s, 'latin1').toString('latin1') === s });
    // Checked, not ignored: a character that is no byte fails the format.
    expect(ajv.validate({ type: 'string', format: 'binary' }, 'bytes \u0100')).toBe(false);
    ajv.addSchema(doc as object, 'api');
    const pointer = (...parts: string[]) => 'api#/' + parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
    const failures: string[] = [];
    expect(seen.filter((a) => a.mediaType).length).toBeGreaterThan(0);
    for (const answer of seen) {
      const responses = doc.paths[answer.template]![answer.method]!.responses;
      const key = responses[String(answer.status)] ? String(answer.status) : 'default';
      const response = responses[key]!;
      // An answer documented without a body (204) has none.
      if (!response.$ref && !response.content) {
        if (answer.body !== null) failures.push(`${answer.method.toUpperCase()} ${answer.template} ${answer.status}: a body where none is documented`);
        continue;
      }
      // A JSON answer against the JSON schema; bytes against the media type documented for them.
      const bytesType = answer.mediaType?.split(';')[0];
      const contentKey = bytesType ? (Object.keys(response.content ?? {}).find((k) => k === bytesType || k === '*/*') ?? 'none') : 'application/json';
      if (answer.mediaType && contentKey === 'none') {
        failures.push(`${answer.method.toUpperCase()} ${answer.template} ${answer.status}: ${answer.mediaType} is not documented`);
        continue;
      }
      const ref = response.$ref
        ? pointer('components', 'responses', response.$ref.split('/').pop()!, 'content', contentKey, 'schema')
        : pointer('paths', answer.template, answer.method, 'responses', key, 'content', contentKey, 'schema');
      const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
      if (!validate(answer.body)) failures.push(`${answer.method.toUpperCase()} ${answer.template} ${answer.status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    expect(failures).toEqual([]);

    // Every operation was seen succeeding at least once, and the listed error statuses were met.
    const succeeded = new Set(seen.filter((a) => a.status < 300).map((a) => `${a.method} ${a.template}`));
    const documented = Object.entries(doc.paths).flatMap(([t, ops]) => Object.keys(ops).map((m) => `${m} ${t}`));
    expect(documented.filter((op) => !succeeded.has(op) && !op.includes('/webhooks/stripe') && !op.includes('openapi.json'))).toEqual([]);
    expect(new Set(seen.map((a) => a.status))).toEqual(new Set([200, 201, 202, 204, 206, 400, 401, 403, 404, 409, 413, 415, 416, 422]));
    // Every answer's status is documented for its operation (not only met by `default`).
    expect(seen.filter((a) => a.template.includes('/files') && !doc.paths[a.template]![a.method]!.responses[String(a.status)]).map((a) => `${a.method} ${a.template} ${a.status}`)).toEqual([]);
  }, 120_000);
});
