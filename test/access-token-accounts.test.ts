// An access token whose email belongs to an existing account: linked to that account when the identity
// provider says the email is verified, else 409 CONFLICT (never 401, never a second account). A database
// that fails while the token's user is looked up answers 503, not "invalid or expired".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { startIdentityProvider, type IdentityProvider } from './support/identity-provider.js';
import { startTestServer, type TestServer } from './support/server.js';
import { proxiedDatabase, type TcpProxy } from './support/tcp-proxy.js';
import { until } from './support/wait.js';

const ME = 'query { me { id email } }';

let idp: IdentityProvider;
let db: TestDatabase;
let proxy: TcpProxy;
let server: TestServer;

beforeAll(async () => {
  idp = await startIdentityProvider();
  db = await createTestDatabase();
  const through = await proxiedDatabase(db);
  proxy = through.proxy;
  server = await startTestServer(idp.env, { db: through.db });
});

afterAll(async () => {
  await proxy?.restore().catch(() => {});
  await server?.close();
  await proxy?.close();
  await db?.close();
  await idp?.close();
});

describe('an access token for the email of an existing account', () => {
  it('is linked to that account when the email is verified, and stays linked', async () => {
    const existing = await server.createUser('carol@example.com');
    const jwt = await idp.token({ sub: 'idp|carol', email: 'Carol@Example.com', email_verified: true });
    const me = await server.api.graphql(ME, {}, jwt);
    expect(me.errors).toBeUndefined();
    expect(me.data.me).toEqual({ id: existing.id, email: 'carol@example.com' });
    // Later tokens of the subject need no email; the account's API key still works.
    expect((await server.api.graphql(ME, {}, await idp.token({ sub: 'idp|carol' }))).data.me.id).toBe(existing.id);
    expect((await server.api.get('/v1/tasks', { key: existing.apiKey })).status).toBe(200);
    expect(await server.prisma.user.count({ where: { email: 'carol@example.com' } })).toBe(1);
  });

  it('is refused with 409 when the email is not verified, on REST and GraphQL', async () => {
    await server.createUser('dave@example.com');
    const jwt = await idp.token({ sub: 'idp|dave', email: 'dave@example.com' });
    const rest = await server.api.get('/v1/tasks', { key: jwt });
    expect(rest.status).toBe(409);
    expect(rest.body.error.code).toBe('CONFLICT');
    const graphql = await server.api.graphql(ME, {}, jwt);
    expect(graphql.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(await server.prisma.user.findUnique({ where: { externalSubject: 'idp|dave' } })).toBeNull();
  });

  it('is refused with 409 when the account is linked to another identity', async () => {
    await server.createUser('erin@example.com');
    const first = await server.api.graphql(ME, {}, await idp.token({ sub: 'idp|erin', email: 'erin@example.com', email_verified: true }));
    expect(first.errors).toBeUndefined();
    const other = await server.api.get('/v1/tasks', { key: await idp.token({ sub: 'other|erin', email: 'erin@example.com', email_verified: true }) });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('CONFLICT');
  });
});

describe('a database failure during authentication', () => {
  it('answers 503, not 401', async () => {
    const jwt = await idp.token({ sub: 'idp|frank', email: 'frank@example.com', email_verified: true });
    await proxy.cut();
    try {
      const rest = await server.api.get('/v1/tasks', { key: jwt });
      expect(rest.status).toBe(503);
      expect(rest.body.error.code).toBe('UNAVAILABLE');
      const graphql = await server.api.graphql(ME, {}, jwt);
      expect(graphql.errors?.[0]?.extensions?.code).toBe('UNAVAILABLE');
    } finally {
      await proxy.restore();
    }
    await until('the service to answer again', async () => (await server.api.get('/v1/tasks', { key: jwt })).status === 200);
  });
});
