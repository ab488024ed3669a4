// The HTTP server as a whole: health endpoints, the error envelope and its status codes, limits, error
// masking, and the life of the process (one owner per data directory, graceful shutdown, data kept).
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPrismaClient } from '../src/db/client.js';
import { createKysely } from '../src/db/kysely.js';
import { apiClient } from './support/http.js';
import { killAll, runCli, runMain, startServerProcess, type ServerProcess } from './support/processes.js';
import { usingPostgres } from './support/database.js';
import { startTestServer, type TestServer } from './support/server.js';
import { until } from './support/wait.js';

const errorBody = (code: string) => ({ error: { code, message: expect.any(String) } });

describe('HTTP surface', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('answers /healthz and /readyz with 200', async () => {
    const health = await server.api.get('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await server.api.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  it('answers an unknown path with a 404 JSON error', async () => {
    for (const p of ['/nope', '/v1/nope', '/v1/agents/x/y/z']) {
      const res = await server.api.get(p);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual(errorBody('NOT_FOUND'));
    }
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await server.api.delete('/v1/agents');
    expect(res.status).toBe(405);
    expect(res.body).toEqual(errorBody('METHOD_NOT_ALLOWED'));
    expect(res.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST']);
  });

  it('takes a /graphql body up to 1 MiB and refuses a larger one with 413', async () => {
    const withPadding = (bytes: number) => {
      const bare = JSON.stringify({ query: '{ __typename }', variables: { pad: '' } });
      return JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(bytes - bare.length) } });
    };
    const fits = await server.api.post('/graphql', { body: withPadding(1024 * 1024) });
    expect(fits.status).toBe(200);
    expect(fits.body).toEqual({ data: { __typename: 'Query' } });
    const over = await server.api.post('/graphql', { body: withPadding(1024 * 1024 + 1) });
    expect(over.status).toBe(413);
    expect(over.body).toEqual(errorBody('PAYLOAD_TOO_LARGE'));
  });

  it('puts the error code of a GraphQL error in extensions.code', async () => {
    const anonymous = await server.api.graphql('{ me { id } }');
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const syntax = await server.api.graphql('{ me { id ');
    expect(syntax.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  describe('rate limit', () => {
    let limited: TestServer;
    beforeAll(async () => {
      // A second server on the same database, with a limit small enough to reach.
      limited = await startTestServer({ RATE_LIMIT_PER_MINUTE: '3' }, { db: server.db });
    });
    afterAll(() => limited?.close());

    it('answers 429 with Retry-After past the limit, per caller', async () => {
      const query = { query: '{ __typename }' };
      for (let i = 0; i < 3; i++) expect((await limited.api.post('/graphql', { body: query })).status).toBe(200);
      const refused = await limited.api.post('/graphql', { body: query });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(errorBody('RATE_LIMITED'));
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      // REST counts against the same caller.
      expect((await limited.api.get('/v1/agents')).status).toBe(429);
      // Another caller has its own allowance, and health checks are never limited.
      const user = await limited.createUser();
      expect((await limited.api.post('/graphql', { body: query, key: user.apiKey })).status).toBe(200);
      expect((await limited.api.get('/healthz')).status).toBe(200);
    });
  });

  describe('an unexpected failure', () => {
    let app: App;
    let url: string;
    let closeApp: (() => Promise<void>) | undefined;
    const logged: string[] = [];
    const secret = `hunter2-${randomBytes(4).toString('hex')}`;

    beforeAll(async () => {
      // The service over a database client whose key lookup breaks, as a lost connection would.
      const prisma = createPrismaClient(server.db.url, 2);
      const broken = new Error(`boom: password=${secret} at /srv/app/src/services/accounts.ts:42`);
      // The lookup is one Kysely statement on api_keys (stores/accounts-store.ts); every other statement runs.
      const ownSql = createKysely(server.db.url, 2);
      const withPlugin = ownSql.withPlugin({
        transformQuery: ({ node }) => {
          if (/"(api_keys|apiKeys)"/.test(JSON.stringify(node))) throw broken;
          return node;
        },
        transformResult: async ({ result }) => result,
      });
      // Statements compiled once (db/compiled-statement.ts) run through executeQuery and skip plugins.
      const failingSql = new Proxy(withPlugin, {
        get(target, prop) {
          if (prop === 'executeQuery') {
            return (query: { sql: string }) => {
              if (/"api_keys"/.test(query.sql)) throw broken;
              return target.executeQuery(query as never);
            };
          }
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const sink = new Writable({
        write(chunk, _encoding, done) {
          logged.push(String(chunk));
          done();
        },
      });
      app = await createApp({
        config: loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'error', RATE_LIMIT_PER_MINUTE: '0' }),
        database: { url: server.db.url, embedded: server.db.kind === 'pglite', preparedStatements: false, prisma, sql: failingSql, searchSql: failingSql, close: async () => { await prisma.$disconnect(); await ownSql.destroy(); } },
        logger: pino({ level: 'error' }, sink),
        serverKey: randomBytes(32),
        runWorker: false,
      });
      ({ url } = await app.listen(0, '127.0.0.1'));
      closeApp = async () => {
        await app.close();
        await prisma.$disconnect();
      };
    });
    afterAll(() => closeApp?.());

    it('reaches the client as a bare INTERNAL error; the details go only to the log', async () => {
      const api = apiClient(url);
      const rest = await api.get('/v1/agents', { key: 'tmk_some-key' });
      const gql = await api.post('/graphql', { key: 'tmk_some-key', body: { query: '{ me { id } }' } });
      expect(rest.status).toBe(500);
      expect(rest.body).toEqual({ error: { code: 'INTERNAL', message: 'internal error' } });
      expect(gql.body.errors).toHaveLength(1);
      expect(gql.body.errors[0].extensions.code).toBe('INTERNAL');
      for (const text of [JSON.stringify(rest.body), JSON.stringify(gql.body)]) {
        expect(text).not.toContain('boom');
        expect(text).not.toContain(secret);
        expect(text).not.toMatch(/\.ts:\d+|\bat \S+ \(|stack/i);
      }
      expect(logged.join('')).toContain('boom');
    });
  });
});

// A process on its embedded database (DATA_DIR alone): the PGlite run covers it; the run on a PostgreSQL
// server would repeat it from an empty directory.
describe.skipIf(usingPostgres())('the server process', () => {
  let dataDir: string;
  let first: ServerProcess | undefined;
  let second: ServerProcess | undefined;
  let user: { id: string; apiKey: string };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'server-test-'));
  });
  afterAll(async () => {
    await killAll([first, second]);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('owns its data directory: a second server on it exits 2 in one line naming DATA_DIR and the holder', async () => {
    first = await startServerProcess({ DATA_DIR: dataDir });
    const entries = await readdir(dataDir);
    expect(entries).toEqual(expect.arrayContaining(['pglite.lock', '.s.PGSQL.5432']));
    const run = await runMain({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    expect(run.code).toBe(2);
    const holder = (await readFile(path.join(dataDir, 'pglite.lock'), 'utf8')).trim();
    expect(holder).toBe(String(first.child.pid));
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      `DATA_DIR: the embedded database in ${dataDir} is in use by another process (pid ${holder}); stop that server, or set DATA_DIR to another directory`,
    ]);
    // The refused start took nothing away from the running one.
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
  }, 120_000);

  it('on SIGTERM stops accepting, finishes the request in flight, closes the database and exits 0', async () => {
    const cli = await runCli(['user', 'create', '--email', 'kept@example.com', '--json'], { DATA_DIR: dataDir });
    expect(cli.code).toBe(0);
    user = JSON.parse(cli.stdout);
    const { port } = new URL(first!.url);

    // A request whose body is only half sent. "Expect: 100-continue" makes the server say when it has
    // the request, so the signal comes while the request is surely in flight.
    const body = JSON.stringify({ query: '{ me { id email } }' });
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      [
        'POST /graphql HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        'Content-Type: application/json',
        `Authorization: Bearer ${user.apiKey}`,
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Expect: 100-continue',
        'Connection: close',
        '',
        '',
      ].join('\r\n'),
    );
    await until('100 Continue', () => received.includes('100 Continue'));
    socket.write(body.slice(0, 10));

    first!.child.kill('SIGTERM');
    // New connections are refused from now on…
    await until('new connections refused', async () => !(await connects(Number(port))));
    // …while the request already in flight gets its full answer. (The socket is not half-closed: Node
    // treats a client's FIN as the client going away and aborts its request.)
    socket.write(body.slice(10));
    await ended;
    const [head, payload] = received.slice(received.indexOf('HTTP/1.1 200')).split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(payload!)).toEqual({ data: { me: { id: user.id, email: 'kept@example.com' } } });

    const exit = await first!.finished;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toBe('');
    // The database closed cleanly: its socket and the lock are gone, the data stays.
    const entries = await readdir(dataDir);
    expect(entries).not.toContain('pglite.lock');
    expect(entries).not.toContain('.s.PGSQL.5432');
    expect(entries).toContain('pg');
  }, 120_000);

  it('starts again on the same directory with the data kept, and stops on SIGINT too', async () => {
    second = await startServerProcess({ DATA_DIR: dataDir });
    const me = await apiClient(second.url).graphql('{ me { id email } }', {}, user.apiKey);
    expect(me.data).toEqual({ me: { id: user.id, email: 'kept@example.com' } });
    const exit = await second.stop('SIGINT');
    expect(exit.code).toBe(0);
    expect(await readdir(dataDir)).not.toContain('pglite.lock');
  }, 120_000);
});

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(port, '127.0.0.1');
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}
