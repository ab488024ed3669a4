// Identity over real HTTP: API keys (shown once, stored as a hash, revocable, last use kept) and access
// tokens verified against a JWKS served on loopback, the way an identity provider publishes its keys.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { BODY_LIMIT_BYTES } from '../src/http/body.js';
import { sendRaw } from '../scripts/fuzz-uploads.js';
import { test as fixtures } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

const ISSUER = 'https://idp.test.invalid/';
const AUDIENCE = 'task-marketplace-tests';
const KID = 'test-key-1';

const ME = 'query { me { id email name } }';
const API_KEYS = 'query { apiKeys { id name prefix createdAt lastUsedAt revokedAt } }';
const CREATE_KEY = 'mutation ($name: String) { createApiKey(name: $name) { id apiKey } }';
const REVOKE_KEY = 'mutation ($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }';

let server: TestServer;
let signingKey: CryptoKey;
let alice: { id: string; apiKey: string };
let bob: { id: string; apiKey: string };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// The identity provider's key set, served for as long as the service that reads it.
const test = fixtures
  // eslint-disable-next-line no-empty-pattern -- vitest reads what a fixture needs from this pattern: nothing
  .extend('identityProvider', { scope: 'file' }, async ({}, { onCleanup }) => {
    const pair = await generateKeyPair('ES256');
    const publicJwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'ES256', use: 'sig' };
    const jwks: Server = createServer((req, res) => {
      if (req.url !== '/.well-known/jwks.json') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    onCleanup(async () => {
      jwks.closeAllConnections();
      await new Promise((resolve) => jwks.close(resolve));
    });
    return { signingKey: pair.privateKey, jwksUrl: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json` };
  })
  .extend('serverEnv', { scope: 'file' }, async ({ identityProvider }) => ({ AUTH_JWKS_URL: identityProvider.jwksUrl, AUTH_ISSUER: ISSUER, AUTH_AUDIENCE: AUDIENCE }));

test.beforeAll(async ({ server: s, identityProvider }) => {
  [server, signingKey] = [s, identityProvider.signingKey];
  alice = await server.createUser();
  bob = await server.createUser();
});

// Status and body of a GraphQL call, for the cases where the HTTP answer matters too.
async function graphql(query: string, variables: Record<string, unknown>, credential?: string) {
  const res = await server.api.post('/graphql', { key: credential, body: { query, variables } });
  return { status: res.status, data: res.body.data, errors: res.body.errors as Array<{ message: string; extensions?: Record<string, unknown> }> | undefined };
}

describe('API keys', () => {
  let created: { id: string; apiKey: string };

  beforeAll(async () => {
    const res = await graphql(CREATE_KEY, { name: 'laptop' }, alice.apiKey);
    expect(res.errors).toBeUndefined();
    created = res.data.createApiKey;
  });

  it('shows a new key once; listings carry only its prefix', async () => {
    expect(created.apiKey).toMatch(/^tmk_[\w-]{40,}$/);
    const list = await graphql(API_KEYS, {}, alice.apiKey);
    const listed = list.data.apiKeys.find((k: { id: string }) => k.id === created.id);
    expect(listed).toMatchObject({ name: 'laptop', prefix: created.apiKey.slice(0, 12), revokedAt: null });
    expect(JSON.stringify(list.data)).not.toContain(created.apiKey);
    // No field of the type could return the key or its hash, whatever a client selects.
    const type = await graphql('query { __type(name: "ApiKey") { fields { name } } }', {});
    expect(type.data.__type.fields.map((f: { name: string }) => f.name).sort()).toEqual(
      ['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'scopes'],
    );
  });

  it('stores only the SHA-256 of the key', async () => {
    const rows = await server.prisma.$queryRawUnsafe<Array<Record<string, unknown>>>('SELECT * FROM api_keys WHERE id = $1', created.id);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.hash).toBe(sha256(created.apiKey));
    for (const value of Object.values(row)) {
      if (typeof value === 'string') expect(value.includes(created.apiKey.slice(12))).toBe(false);
    }
  });

  it('authenticates with the new key and records when it was last used', async () => {
    const before = await server.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(before.lastUsedAt).toBeNull();
    const startedAt = Date.now();
    const me = await graphql(ME, {}, created.apiKey);
    expect(me.data.me).toMatchObject({ id: alice.id });
    const after = await server.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(after.lastUsedAt).not.toBeNull();
    expect(after.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(startedAt - 1000);
    const listed = (await graphql(API_KEYS, {}, alice.apiKey)).data.apiKeys.find((k: { id: string }) => k.id === created.id);
    expect(listed.lastUsedAt).toBe(after.lastUsedAt!.toISOString());
  });

  it('lists only the caller’s keys and lets no one revoke another user’s key', async () => {
    const bobs = await graphql(API_KEYS, {}, bob.apiKey);
    expect(bobs.data.apiKeys.map((k: { id: string }) => k.id)).not.toContain(created.id);
    const res = await graphql(REVOKE_KEY, { id: created.id }, bob.apiKey);
    expect(res.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await graphql(ME, {}, created.apiKey)).data.me.id).toBe(alice.id);
  });

  it('refuses a revoked key with 401 UNAUTHENTICATED on REST and UNAUTHENTICATED on GraphQL', async () => {
    const { data } = await graphql(CREATE_KEY, { name: 'to revoke' }, alice.apiKey);
    const doomed = data.createApiKey as { id: string; apiKey: string };
    expect((await server.api.get('/v1/agents', { key: doomed.apiKey })).status).toBe(200);

    const revoked = await graphql(REVOKE_KEY, { id: doomed.id }, alice.apiKey);
    expect(revoked.errors).toBeUndefined();
    expect(new Date(revoked.data.revokeApiKey.revokedAt).getTime()).not.toBeNaN();

    const rest = await server.api.get('/v1/agents', { key: doomed.apiKey });
    expect(rest.status).toBe(401);
    expect(rest.body).toEqual({ error: { code: 'UNAUTHENTICATED', message: expect.any(String) } });
    const gql = await graphql(ME, {}, doomed.apiKey);
    expect(gql.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(gql.data ?? null).toBeNull();
    // Revoking again is harmless, and the other keys of the user keep working.
    expect((await graphql(REVOKE_KEY, { id: doomed.id }, alice.apiKey)).errors).toBeUndefined();
    expect((await graphql(ME, {}, alice.apiKey)).data.me.id).toBe(alice.id);
  });

  it('needs a caller for me, apiKeys and the key mutations', async () => {
    for (const [query, variables] of [[ME, {}], [API_KEYS, {}], [CREATE_KEY, {}], [REVOKE_KEY, { id: 'key_x' }]] as const) {
      const res = await graphql(query, variables);
      expect(res.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
  });
});

describe('access tokens (JWT)', () => {
  const token = (claims: { sub?: string; aud?: string; iss?: string; exp?: number; email?: string; name?: string }, key = signingKey) => {
    const { sub, aud = AUDIENCE, iss = ISSUER, exp, ...rest } = claims;
    const jwt = new SignJWT(rest).setProtectedHeader({ alg: 'ES256', kid: KID }).setIssuer(iss).setAudience(aud).setIssuedAt();
    if (sub) jwt.setSubject(sub);
    jwt.setExpirationTime(exp ?? Math.floor(Date.now() / 1000) + 300);
    return jwt.sign(key);
  };

  it('provisions the user of a new subject once and finds it afterwards', async () => {
    const jwt = await token({ sub: 'idp|alpha', email: 'Alpha@Example.com', name: 'Alpha' });
    const first = await graphql(ME, {}, jwt);
    expect(first.errors).toBeUndefined();
    expect(first.data.me).toMatchObject({ email: 'alpha@example.com', name: 'Alpha' });
    const again = await graphql(ME, {}, await token({ sub: 'idp|alpha' }));
    expect(again.data.me.id).toBe(first.data.me.id);
    const row = await server.prisma.user.findUniqueOrThrow({ where: { id: first.data.me.id } });
    expect(row.externalSubject).toBe('idp|alpha');
    expect(await server.prisma.user.count({ where: { externalSubject: 'idp|alpha' } })).toBe(1);
  });

  it('works for REST too, and a token user can make an API key for the same account', async () => {
    const jwt = await token({ sub: 'idp|beta' });
    const rest = await server.api.get('/v1/agents', { key: jwt });
    expect(rest.status).toBe(200);
    const me = (await graphql(ME, {}, jwt)).data.me;
    const key = (await graphql(CREATE_KEY, {}, jwt)).data.createApiKey.apiKey;
    expect((await graphql(ME, {}, key)).data.me.id).toBe(me.id);
  });

  it.each([
    ['the wrong audience', () => token({ sub: 'idp|gamma', aud: 'someone-else' })],
    ['the wrong issuer', () => token({ sub: 'idp|gamma', iss: 'https://evil.invalid/' })],
    ['an expired token', () => token({ sub: 'idp|gamma', exp: Math.floor(Date.now() / 1000) - 600 })],
    ['a signature by another key', async () => token({ sub: 'idp|gamma' }, (await generateKeyPair('ES256')).privateKey)],
    ['no subject', () => token({})],
  ])('refuses %s with 401 and provisions no one', async (_label, make) => {
    const jwt = await make();
    const rest = await server.api.get('/v1/agents', { key: jwt });
    expect(rest.status).toBe(401);
    expect(rest.body.error.code).toBe('UNAUTHENTICATED');
    const gql = await graphql(ME, {}, jwt);
    expect(gql.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await server.prisma.user.count({ where: { externalSubject: 'idp|gamma' } })).toBe(0);
  });

  it('refuses a tampered payload', async () => {
    const [header, , signature] = (await token({ sub: 'idp|delta' })).split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'idp|admin', iss: ISSUER, aud: AUDIENCE, exp: 9999999999 })).toString('base64url');
    const res = await server.api.get('/v1/agents', { key: `${header}.${forged}.${signature}` });
    expect(res.status).toBe(401);
  });
});

// A route that needs a caller checks the credential before it reads the body: without credentials that
// verify it answers 401 whatever the body, and does not wait for one. Public routes read the body first.
describe('the credential before the body', () => {
  const BROKEN = '{"title":';
  const post = (path: string, headers: Record<string, string>, body = BROKEN) => server.api.post(path, { headers: { 'content-type': 'application/json', ...headers }, body });
  const BAD_KEY = { code: 'UNAUTHENTICATED', message: 'the API key is invalid, expired or revoked' };
  const NO_KEY = { code: 'UNAUTHENTICATED', message: 'send Authorization: Bearer <API key or access token>' };

  it.each(['/v1/tasks', '/v1/agents'])('POST %s with broken JSON: 401 for a bad key, no key or an ended session; 400 naming body for a good key', async (path) => {
    const bad = await post(path, { authorization: 'Bearer nonsense' });
    expect([bad.status, bad.body]).toEqual([401, { error: BAD_KEY }]);
    const none = await post(path, {});
    expect([none.status, none.body]).toEqual([401, { error: NO_KEY }]);
    const ended = await post(path, { cookie: 'tm_session=ended' });
    expect([ended.status, ended.body]).toEqual([401, { error: NO_KEY }]);
    const good = await post(path, { authorization: `Bearer ${alice.apiKey}` });
    expect(good.status).toBe(400);
    expect(good.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'body' });
  });

  it('answers a bad key without reading its body: one over the limit, one that never finishes arriving', async () => {
    const huge = await post('/v1/tasks', { authorization: 'Bearer nonsense' }, `{"description":"${'x'.repeat(BODY_LIMIT_BYTES)}"}`);
    expect([huge.status, huge.body]).toEqual([401, { error: BAD_KEY }]);
    const unfinished = await sendRaw(server.url, {
      method: 'POST',
      path: '/v1/tasks',
      headers: { authorization: 'Bearer nonsense', 'content-type': 'application/json', 'content-length': '1000' },
      chunks: [Buffer.from(BROKEN)],
    });
    expect(unfinished.status).toBe(401);
    expect(JSON.parse(unfinished.text)).toEqual({ error: BAD_KEY });
  });

  it('a public route reads the body first, with or without a key', async () => {
    for (const headers of [{ authorization: 'Bearer nonsense' }, {}] as Record<string, string>[]) {
      const res = await post('/v1/receipts/verify', headers);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'body' });
    }
  });
});
