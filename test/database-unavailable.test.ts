// A database that stops answering is the service's outage, not the caller's mistake: requests get 503
// with Retry-After and a coded error (never a 500), and the service recovers by itself once the database
// is back. The outage is made by a TCP proxy between the service and its database, cut and restored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from '../src/db/client.js';
import { isDatabaseUnavailable } from '../src/db/errors.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { startTestServer, type TestServer } from './support/server.js';
import { proxiedDatabase, type TcpProxy } from './support/tcp-proxy.js';
import { until } from './support/wait.js';

let db: TestDatabase;
let proxy: TcpProxy;
let server: TestServer;

beforeAll(async () => {
  db = await createTestDatabase();
  const through = await proxiedDatabase(db);
  proxy = through.proxy;
  server = await startTestServer({}, { db: through.db });
});
afterAll(async () => {
  await proxy?.restore().catch(() => {});
  await server?.close();
  await proxy?.close();
  await db?.close();
});

describe('an unreachable database', () => {
  it('is recognised in the error a client gets when it cannot connect', async () => {
    const refused = createPrismaClient('postgresql://postgres@127.0.0.1:1/none', 1);
    const error = await refused.$queryRaw`SELECT 1`.catch((e: unknown) => e);
    await refused.$disconnect();
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
  });

  it('counts a transaction that ran out of time (an overloaded database or host) as unavailable, and rolls it back', async () => {
    const client = createPrismaClient(db.url, 2);
    const marker = `tx-timeout-${Date.now()}`;
    const error = await client
      .$transaction(
        async (tx) => {
          await tx.$executeRaw`INSERT INTO worker_heartbeats (pool_id, beat_at) VALUES (${marker}, now())`;
          await tx.$executeRaw`SELECT pg_sleep(0.15)`;
          await tx.$queryRaw`SELECT 1`;
        },
        { timeout: 50 },
      )
      .catch((e: unknown) => e);
    const left = await client.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM worker_heartbeats WHERE pool_id = ${marker}`;
    await client.$disconnect();
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(Number(left[0]!.n)).toBe(0);
  });

  it('answers 503 with Retry-After while it is gone, and the service recovers when it is back', async () => {
    const { apiKey } = await server.createUser();
    expect((await server.api.get('/v1/agents', { key: apiKey })).status).toBe(200);
    await proxy.cut();
    try {
      for (const [path, key] of [['/v1/agents', apiKey], ['/v1/discover?q=anything', undefined], ['/v1/tasks', apiKey]] as const) {
        const res = await server.api.get(path, { key });
        expect(res.status, path).toBe(503);
        expect(res.body.error.code, path).toBe('UNAVAILABLE');
        expect(res.headers.get('retry-after'), path).toBe('5');
      }
      const graphql = await server.api.post('/graphql', { body: { query: '{ discover(q: "anything") { total } }' } });
      expect(graphql.body.errors[0].extensions.code).toBe('UNAVAILABLE');
      expect((await server.api.get('/readyz')).status).toBe(503);
    } finally {
      await proxy.restore();
    }
    await until('the service to answer again', async () => (await server.api.get('/v1/agents', { key: apiKey })).status === 200);
    expect((await server.api.get('/readyz')).status).toBe(200);
  });
});
