// The OAuth 2.1 authorization server over the wire: discovery documents, registration, the consent's
// answer (as the consent page sends it), the code for tokens with PKCE, refresh rotation, and what an
// attacker tries: an unregistered redirect_uri, PKCE missing or plain, a code or a refresh token used twice.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { openSse } from './support/subscriptions.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const REDIRECT = 'http://127.0.0.1:7777/callback';
const DECIDE = 'mutation ($request: OAuthAuthorizationRequest!, $allow: Boolean!) { decideOAuthAuthorization(request: $request, allow: $allow) }';
const DESCRIBE = 'query ($request: OAuthAuthorizationRequest!) { oauthAuthorization(request: $request) { appName redirectHost scopes redirectTo } }';

let server: TestServer;
let user: { id: string; apiKey: string };
// The service's public address (PUBLIC_BASE_URL, here http://localhost:PORT): the issuer and resource.
let base: string;

test.beforeAll(async ({ server: s }) => {
  server = s;
  user = await server.createUser();
  base = server.app.services.deps.urls.base;
});
afterAll(async () => {
});

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

async function register(redirectUris: unknown = [REDIRECT]) {
  const res = await fetch(`${server.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Test Host', redirect_uris: redirectUris }) });
  return { status: res.status, body: (await res.json()) as any };
}

async function token(form: Record<string, string>) {
  const res = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  return { status: res.status, body: (await res.json()) as any };
}

function request(clientId: string, challenge: string | null, extra: Record<string, string | null> = {}) {
  return { responseType: 'code', clientId, redirectUri: REDIRECT, codeChallenge: challenge, codeChallengeMethod: 'S256', scope: 'tasks:read', state: 'st8', resource: base, ...extra };
}

async function decide(req: Record<string, unknown>, allow = true) {
  const res = await server.api.post('/graphql', { key: user.apiKey, body: { query: DECIDE, variables: { request: req, allow } } });
  return res.body as { data?: { decideOAuthAuthorization: string }; errors?: Array<{ message: string; extensions: Record<string, unknown> }> };
}

async function authorize(clientId: string, extra: Record<string, string | null> = {}) {
  const { verifier, challenge } = pkce();
  const answer = await decide(request(clientId, challenge, extra));
  const url = new URL(answer.data!.decideOAuthAuthorization);
  return { code: url.searchParams.get('code')!, verifier, url };
}

describe('discovery', () => {
  it('serves authorization server and protected resource metadata, and /mcp points at them', async () => {
    const as = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as any;
    expect(as).toMatchObject({ issuer: base, token_endpoint: `${base}/oauth/token`, code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['none'] });
    const pr = (await (await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`)).json()) as any;
    expect(pr).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
    const a2a = await fetch(`${server.url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(a2a.status).toBe(401);
    expect(a2a.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/a2a"`);
  });
});

describe('registration', () => {
  it('accepts https and loopback http redirect URIs only', async () => {
    expect((await register(['https://app.example/cb', 'http://localhost:3000/cb'])).status).toBe(201);
    for (const bad of [['http://app.example/cb'], ['javascript:alert(1)'], ['https://app.example/cb#x'], [], 'https://app.example/cb']) {
      const res = await register(bad);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_redirect_uri');
    }
  });
});

describe('authorization', () => {
  it('never redirects to a redirect_uri the app did not register (no open redirect)', async () => {
    const { body: client } = await register();
    for (const redirectUri of ['https://evil.example/steal', `${REDIRECT}/more`, 'http://127.0.0.1:7777/callback?x=1']) {
      const described = await server.api.post('/graphql', { key: user.apiKey, body: { query: DESCRIBE, variables: { request: request(client.client_id, pkce().challenge, { redirectUri }) } } });
      expect(described.body.errors[0].extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'redirectUri' });
      const answer = await decide(request(client.client_id, pkce().challenge, { redirectUri }));
      expect(answer.data).toBeNull();
      expect(answer.errors?.[0]?.extensions.code).toBe('INVALID_INPUT');
    }
    expect((await decide(request('app_unknown', pkce().challenge))).errors?.[0]?.extensions).toMatchObject({ field: 'clientId' });
  });

  it('sends a request without PKCE, or with plain, back to the app as invalid_request, with no code', async () => {
    const { body: client } = await register();
    const variants: Array<Record<string, string | null>> = [{ codeChallenge: null }, { codeChallengeMethod: 'plain' }, { codeChallengeMethod: null }];
    for (const extra of variants) {
      const { challenge } = pkce();
      const answer = await decide(request(client.client_id, challenge, extra));
      const url = new URL(answer.data!.decideOAuthAuthorization);
      expect(url.origin + url.pathname).toBe(REDIRECT);
      expect(url.searchParams.get('error')).toBe('invalid_request');
      expect(url.searchParams.get('state')).toBe('st8');
      expect(url.searchParams.get('code')).toBeNull();
    }
  });

  it('describes the app for the consent page, and a denial reaches the app as access_denied', async () => {
    const { body: client } = await register();
    const described = await server.api.post('/graphql', { key: user.apiKey, body: { query: DESCRIBE, variables: { request: request(client.client_id, pkce().challenge, { scope: 'tasks:read agents:read' }) } } });
    expect(described.body.data.oauthAuthorization).toEqual({ appName: 'Test Host', redirectHost: '127.0.0.1:7777', scopes: ['tasks:read', 'agents:read'], redirectTo: null });
    const denied = new URL((await decide(request(client.client_id, pkce().challenge), false)).data!.decideOAuthAuthorization);
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('code')).toBeNull();
  });

  it('names the app to someone not signed in yet, and deciding still needs a signed-in person', async () => {
    const { body: client } = await register();
    const req = request(client.client_id, pkce().challenge, { scope: 'tasks:read agents:read' });
    const described = await server.api.post('/graphql', { body: { query: DESCRIBE, variables: { request: req } } });
    expect(described.body.data.oauthAuthorization).toEqual({ appName: 'Test Host', redirectHost: '127.0.0.1:7777', scopes: ['tasks:read', 'agents:read'], redirectTo: null });
    const anonymous = await server.api.post('/graphql', { body: { query: DECIDE, variables: { request: req, allow: true } } });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('the person may grant fewer scopes than asked: the token holds only those', async () => {
    const { body: client } = await register();
    const { verifier, challenge } = pkce();
    // The app asked for tasks:read and agents:read; the consent page sends back the ones left checked.
    const answer = await decide(request(client.client_id, challenge, { scope: 'tasks:read' }));
    const code = new URL(answer.data!.decideOAuthAuthorization).searchParams.get('code')!;
    const issued = await token({ grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: REDIRECT, code_verifier: verifier, resource: base });
    expect(issued.body.scope).toBe('tasks:read');
    expect((await server.api.get('/v1/agents', { key: issued.body.access_token })).body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', scope: 'agents:read' });
  });
});

describe('tokens', () => {
  it('trades a code with its verifier for tokens limited to the scopes granted; refresh rotates', async () => {
    const { body: client } = await register();
    const { code, verifier, url } = await authorize(client.client_id);
    expect(url.searchParams.get('state')).toBe('st8');
    expect(url.searchParams.get('iss')).toBe(base);
    expect((await token({ grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: REDIRECT, code_verifier: 'wrong'.repeat(10) })).body.error).toBe('invalid_grant');

    const again = await authorize(client.client_id);
    const issued = await token({ grant_type: 'authorization_code', client_id: client.client_id, code: again.code, redirect_uri: REDIRECT, code_verifier: again.verifier, resource: base });
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'tasks:read', access_token: expect.stringMatching(/^tma_/), refresh_token: expect.stringMatching(/^tmr_/) });
    const access = issued.body.access_token as string;
    expect((await server.api.get('/v1/tasks', { key: access })).status).toBe(200);
    expect((await server.api.get('/v1/agents', { key: access })).body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', scope: 'agents:read' });
    // Stored hashed: neither token is in the database.
    const rows = await server.sql.selectFrom('oauthTokens').select('hash').execute();
    expect(JSON.stringify(rows)).not.toContain(access);

    const refreshed = await token({ grant_type: 'refresh_token', client_id: client.client_id, refresh_token: issued.body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(issued.body.refresh_token);
    expect((await server.api.get('/v1/tasks', { key: refreshed.body.access_token })).status).toBe(200);
    const widen = await token({ grant_type: 'refresh_token', client_id: client.client_id, refresh_token: refreshed.body.refresh_token, scope: 'billing' });
    expect(widen.body.error).toBe('invalid_scope');
    void verifier;
  });

  it('a code used twice fails and revokes the tokens issued for it', async () => {
    const { body: client } = await register();
    const { code, verifier } = await authorize(client.client_id);
    const form = { grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: REDIRECT, code_verifier: verifier };
    const first = await token(form);
    expect(first.status).toBe(200);
    const second = await token(form);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    expect((await server.api.get('/v1/tasks', { key: first.body.access_token })).status).toBe(401);
  });

  it('a refresh token used twice revokes its whole family, and closes its open stream', async () => {
    const { body: client } = await register();
    const { code, verifier } = await authorize(client.client_id);
    const first = await token({ grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: REDIRECT, code_verifier: verifier });
    const rotated = await token({ grant_type: 'refresh_token', client_id: client.client_id, refresh_token: first.body.refresh_token });
    const sse = await openSse(server.url, rotated.body.access_token, 'subscription { taskEvents { id } }', {});
    expect(sse.status).toBe(200);
    // The old refresh token again: someone holds a copy. Everything of this authorization ends.
    const replay = await token({ grant_type: 'refresh_token', client_id: client.client_id, refresh_token: first.body.refresh_token });
    expect(replay.body.error).toBe('invalid_grant');
    await sse.ended;
    expect(sse.events.at(-2)?.data).toMatchObject({ errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] });
    expect((await server.api.get('/v1/tasks', { key: rotated.body.access_token })).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', client_id: client.client_id, refresh_token: rotated.body.refresh_token })).body.error).toBe('invalid_grant');
  });

  it('revocation (RFC 7009) and disconnecting the app end its tokens at once', async () => {
    const { body: client } = await register();
    const issue = async () => {
      const { code, verifier } = await authorize(client.client_id);
      return (await token({ grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: REDIRECT, code_verifier: verifier })).body;
    };
    const one = await issue();
    const revoke = await fetch(`${server.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: one.refresh_token, client_id: client.client_id }) });
    expect(revoke.status).toBe(200);
    expect((await server.api.get('/v1/tasks', { key: one.access_token })).status).toBe(401);

    const two = await issue();
    const apps = await server.api.get('/v1/account/apps', { key: user.apiKey });
    expect(apps.body.data).toContainEqual(expect.objectContaining({ clientId: client.client_id, name: 'Test Host', redirectHosts: ['127.0.0.1:7777'], scopes: ['tasks:read'] }));
    const disconnected = await server.api.delete(`/v1/account/apps/${client.client_id}`, { key: user.apiKey });
    expect(disconnected.status).toBe(200);
    expect((await server.api.get('/v1/tasks', { key: two.access_token })).status).toBe(401);
    expect((await server.api.get('/v1/account/apps', { key: user.apiKey })).body.data.map((a: { clientId: string }) => a.clientId)).not.toContain(client.client_id);
    expect((await server.api.delete(`/v1/account/apps/${client.client_id}`, { key: user.apiKey })).status).toBe(404);
  });
});

// What a token is good for, over the wire: the MCP endpoint through the official MCP client, A2A by
// JSON-RPC, REST and GraphQL by HTTP.
async function reach(access: string) {
  const auth = { authorization: `Bearer ${access}` };
  const mcp = new Client({ name: 'resource-test', version: '1.0.0' });
  let mcpWorks = true;
  try {
    await mcp.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: auth } }));
    await mcp.listTools();
  } catch {
    mcpWorks = false;
  } finally {
    await mcp.close().catch(() => undefined);
  }
  const a2a = await fetch(`${server.url}/a2a`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }),
  });
  const graphql = await server.api.post('/graphql', { key: access, body: { query: '{ me { id } }' } });
  return {
    mcp: mcpWorks,
    a2a: a2a.status === 200 && !((await a2a.json()) as { error?: unknown }).error,
    rest: (await server.api.get('/v1/tasks', { key: access })).status === 200,
    graphql: graphql.status === 200 && !graphql.body.errors,
  };
}

async function tokensFor(clientId: string, resource: string) {
  const { code, verifier } = await authorize(clientId, { resource });
  const issued = await token({ grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: REDIRECT, code_verifier: verifier });
  expect(issued.status).toBe(200);
  return issued.body as { access_token: string; refresh_token: string };
}

describe('access tokens are bound to their resource (RFC 8707)', () => {
  it('a token for /a2a, /mcp or the API works there and nowhere else', async () => {
    const { body: client } = await register();
    expect(await reach((await tokensFor(client.client_id, `${base}/a2a`)).access_token)).toEqual({ mcp: false, a2a: true, rest: false, graphql: false });
    expect(await reach((await tokensFor(client.client_id, `${base}/mcp`)).access_token)).toEqual({ mcp: true, a2a: false, rest: false, graphql: false });
    expect(await reach((await tokensFor(client.client_id, base)).access_token)).toEqual({ mcp: false, a2a: false, rest: true, graphql: true });
    expect(await reach((await tokensFor(client.client_id, `${base}/graphql`)).access_token)).toEqual({ mcp: false, a2a: false, rest: true, graphql: true });
  });

  it('a refused token is told why; an app token is never exchanged for a dashboard session', async () => {
    const { body: client } = await register();
    const { access_token: forA2a } = await tokensFor(client.client_id, `${base}/a2a`);
    const refused = await server.api.get('/v1/tasks', { key: forA2a });
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toBe(`the access token was issued for ${base}/a2a, not for this endpoint; ask for a token for this resource`);
    const { access_token: forApi } = await tokensFor(client.client_id, base);
    const exchanged = await server.api.post('/v1/auth/api-key-session', { body: { apiKey: forApi } });
    expect(exchanged.status).toBe(403);
    expect(exchanged.headers.get('set-cookie')).toBeNull();
  });
});

describe('revocation by its own client only (RFC 7009 §2.1)', () => {
  const revoke = (form: Record<string, string>) =>
    fetch(`${server.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });

  it("another app's client_id, or none, revokes nothing", async () => {
    const { body: appA } = await register();
    const { body: appB } = await register();
    const tokens = await tokensFor(appA.client_id, base);
    const byB = await revoke({ token: tokens.refresh_token, client_id: appB.client_id });
    expect(byB.status).toBe(200);
    expect((await server.api.get('/v1/tasks', { key: tokens.access_token })).status).toBe(200);
    const anonymous = await revoke({ token: tokens.access_token });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: 'invalid_client' });
    const unknown = await revoke({ token: tokens.access_token, client_id: 'app_nobody' });
    expect(unknown.status).toBe(401);
    expect((await server.api.get('/v1/tasks', { key: tokens.access_token })).status).toBe(200);
    expect((await token({ grant_type: 'refresh_token', client_id: appA.client_id, refresh_token: tokens.refresh_token })).status).toBe(200);
    // Its own client revokes it.
    const byA = await revoke({ token: tokens.access_token, client_id: appA.client_id });
    expect(byA.status).toBe(200);
    expect((await server.api.get('/v1/tasks', { key: tokens.access_token })).status).toBe(401);
  });
});

describe('the token endpoint checks a request before spending its grant', () => {
  it('a code sent by another client, or with a wrong redirect_uri or verifier, stays good for its own client', async () => {
    const { body: appA } = await register();
    const { body: appB } = await register();
    const { code, verifier } = await authorize(appA.client_id);
    const form = { grant_type: 'authorization_code', client_id: appA.client_id, code, redirect_uri: REDIRECT, code_verifier: verifier };
    expect((await token({ ...form, client_id: appB.client_id })).body.error).toBe('invalid_grant');
    expect((await token({ ...form, redirect_uri: `${REDIRECT}/other` })).body.error).toBe('invalid_grant');
    expect((await token({ ...form, code_verifier: 'x'.repeat(43) })).body.error).toBe('invalid_grant');
    expect((await token({ ...form, resource: `${base}/mcp` })).body.error).toBe('invalid_target');
    const issued = await token(form);
    expect(issued.status).toBe(200);
    // Spent now: a second use is a replay and ends the grant.
    expect((await token(form)).body.error).toBe('invalid_grant');
    expect((await server.api.get('/v1/tasks', { key: issued.body.access_token })).status).toBe(401);
  });

  it('a refresh token sent by another client, or asking wider scopes, stays good for its own client', async () => {
    const { body: appA } = await register();
    const { body: appB } = await register();
    const tokens = await tokensFor(appA.client_id, base);
    const form = { grant_type: 'refresh_token', client_id: appA.client_id, refresh_token: tokens.refresh_token };
    expect((await token({ ...form, client_id: appB.client_id })).body.error).toBe('invalid_grant');
    expect((await token({ ...form, scope: 'billing' })).body.error).toBe('invalid_scope');
    expect((await token({ ...form, scope: 'nonsense' })).body.error).toBe('invalid_scope');
    const refreshed = await token(form);
    expect(refreshed.status).toBe(200);
    expect((await server.api.get('/v1/tasks', { key: refreshed.body.access_token })).status).toBe(200);
  });
});

describe('pruning', () => {
  it('removes expired codes and tokens and apps nobody connected, a day on; a live refresh token still works', async () => {
    const { body: unused } = await register();
    const { body: used } = await register();
    const { code, verifier } = await authorize(used.client_id);
    const issued = (await token({ grant_type: 'authorization_code', client_id: used.client_id, code, redirect_uri: REDIRECT, code_verifier: verifier })).body;
    const clients = () => server.sql.selectFrom('oauthClients').select('id').where('id', 'in', [unused.client_id, used.client_id]).execute();
    const tokensOf = () => server.sql.selectFrom('oauthTokens as t').innerJoin('oauthGrants as g', 'g.id', 't.grantId').select('t.kind').where('g.clientId', '=', used.client_id).execute();

    // Nothing is a day past its expiry yet.
    await server.app.services.oauth.prune();
    expect(await clients()).toHaveLength(2);
    // Two days on: the code (minutes) and the access token (an hour) are gone, the refresh token (days) stays.
    await server.app.services.oauth.prune(new Date(Date.now() + 2 * 86_400_000));
    expect((await clients()).map((c) => c.id)).toEqual([used.client_id]);
    expect((await tokensOf()).map((t) => t.kind)).toEqual(['refresh']);
    const codes = await server.sql.selectFrom('oauthCodes as c').innerJoin('oauthGrants as g', 'g.id', 'c.grantId').select('c.hash').where('g.clientId', '=', used.client_id).execute();
    expect(codes).toEqual([]);
    const refreshed = await token({ grant_type: 'refresh_token', client_id: used.client_id, refresh_token: issued.refresh_token });
    expect(refreshed.status).toBe(200);
    // The unused app is unknown now.
    const gone = await decide(request(unused.client_id, pkce().challenge));
    expect(JSON.stringify(gone)).toContain('no app is registered');
  });
});
