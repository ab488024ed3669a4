// The administration CLI as a user runs it: a separate process on the server's database, before the
// server starts and while it runs (embedded: through the server's socket; or the DATABASE_URL server).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDataDir, usingPostgres, type TestDatabase } from './support/database.js';
import { apiClient } from './support/http.js';
import { killAll, runCli, startServerProcess, type ServerProcess } from './support/processes.js';

const ME = 'query { me { id email } }';
const servers: ServerProcess[] = [];
const dirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cli-test-'));
  dirs.push(dir);
  return dir;
}

// A data directory holding a migrated embedded database that no server has opened yet.
async function embeddedDir(): Promise<string> {
  const dir = await testDataDir('cli-test-');
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await killAll(servers);
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

// The one line a script reads: exactly one line of JSON, nothing else on stdout.
function jsonLine(stdout: string): Record<string, unknown> {
  expect(stdout.endsWith('\n')).toBe(true);
  const lines = stdout.slice(0, -1).split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

async function createUser(env: Record<string, string>, email: string) {
  const run = await runCli(['user', 'create', '--email', email, '--name', 'Cli User', '--json'], env);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const out = jsonLine(run.stdout);
  expect(Object.keys(out).sort()).toEqual(['apiKey', 'id']);
  expect(out.id).toMatch(/^usr_/);
  expect(out.apiKey).toMatch(/^tmk_/);
  return out as { id: string; apiKey: string };
}

async function createKey(env: Record<string, string>, userId: string) {
  const run = await runCli(['apikey', 'create', '--user', userId, '--json'], env);
  expect(run.code).toBe(0);
  const out = jsonLine(run.stdout);
  expect(Object.keys(out)).toEqual(['apiKey']);
  return out.apiKey as string;
}

// Everything the CLI promises, against one backend: `env` names the database (DATA_DIR, DATABASE_URL).
function cliScenario(label: string, databaseEnv: () => Promise<Record<string, string>>) {
  describe(label, () => {
    let env: Record<string, string>;
    let first: { id: string; apiKey: string };
    let secondKey: string;

    beforeAll(async () => {
      env = await databaseEnv();
    });

    it('creates a user and a key before any server runs', async () => {
      first = await createUser(env, 'First@Example.com');
      secondKey = await createKey(env, first.id);
      expect(secondKey).not.toBe(first.apiKey);
    }, 120_000);

    it('refuses a second user with the same email, as JSON on stderr', async () => {
      const run = await runCli(['user', 'create', '--email', 'first@example.com', '--json'], env);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(JSON.parse(run.stderr)).toEqual({ error: { code: 'CONFLICT', message: expect.any(String) } });
    }, 120_000);

    it('shares the database with a running server, both ways', async () => {
      const server = await startServerProcess(env);
      servers.push(server);
      const api = apiClient(server.url);

      // Written by the CLI before the server started:
      for (const key of [first.apiKey, secondKey]) {
        const me = await api.graphql(ME, {}, key);
        expect(me.data?.me).toEqual({ id: first.id, email: 'first@example.com' });
      }

      // Written by the CLI while the server holds the database:
      const late = await createUser(env, 'late@example.com');
      expect((await api.graphql(ME, {}, late.apiKey)).data?.me.id).toBe(late.id);
      const lateKey = await createKey(env, late.id);
      expect((await api.graphql(ME, {}, lateKey)).data?.me.id).toBe(late.id);

      // Revoked by the CLI, refused by the server at once. The key id comes from the listing.
      const keys = (await api.graphql('query { apiKeys { id prefix } }', {}, late.apiKey)).data?.apiKeys as Array<{ id: string; prefix: string }>;
      const keyId = keys.find((k) => lateKey.startsWith(k.prefix))!.id;
      const revoke = await runCli(['apikey', 'revoke', '--key', keyId, '--json'], env);
      expect(revoke.code).toBe(0);
      expect(jsonLine(revoke.stdout)).toMatchObject({ id: keyId, revokedAt: expect.any(String) });
      const refused = await api.get('/v1/agents', { key: lateKey });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('UNAUTHENTICATED');
      expect((await api.graphql(ME, {}, late.apiKey)).data?.me.id).toBe(late.id);

      // The key itself also names it for revoking.
      const byKey = await runCli(['apikey', 'revoke', '--key', late.apiKey, '--json'], env);
      expect(byKey.code).toBe(0);
      expect((await api.get('/v1/agents', { key: late.apiKey })).status).toBe(401);

      // Listing shows both keys, revoked ones marked, and never a key or its hash.
      const list = await runCli(['apikey', 'list', '--user', late.id, '--json'], env);
      expect(list.code).toBe(0);
      const listed = JSON.parse(list.stdout) as Array<Record<string, unknown>>;
      expect(listed.map((k) => k.id).sort()).toEqual(keys.map((k) => k.id).sort());
      expect(listed.every((k) => typeof k.revokedAt === 'string')).toBe(true);
      expect(Object.keys(listed[0]!).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt']);
      expect(list.stdout).not.toContain(late.apiKey);
      expect(list.stdout).not.toContain(lateKey);

      // An operator settles a contested dispute from the command line.
      const requester = await createUser(env, 'disputer@example.com');
      const agent = (await api.post('/v1/agents', { key: first.apiKey, body: { name: 'Disputed', endpoint: 'http://127.0.0.1:9/agent' } })).body.data;
      const task = (await api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'T', description: 'D', agentId: agent.id, reviewWindowSeconds: 60 } })).body.data;
      await api.patch(`/v1/tasks/${task.id}/accept`, { key: first.apiKey });
      await api.patch(`/v1/tasks/${task.id}/complete`, { key: first.apiKey, body: { result: { text: 'done' } } });
      await api.post(`/v1/tasks/${task.id}/reject`, { key: requester.apiKey, body: { reason: 'Not done' } });
      await api.post(`/v1/tasks/${task.id}/contest`, { key: first.apiKey, body: { statement: 'It is done' } });
      const disputes = await runCli(['dispute', 'list', '--json'], env);
      expect(disputes.code).toBe(0);
      expect(JSON.parse(disputes.stdout)).toEqual([expect.objectContaining({ id: task.id, disputeReason: 'Not done', disputeStatement: 'It is done' })]);
      const badOutcome = await runCli(['dispute', 'resolve', '--task', task.id, '--outcome', 'maybe', '--note', 'n', '--json'], env);
      expect(badOutcome.code).not.toBe(0);
      expect(badOutcome.stderr).toContain('outcome');
      const resolved = await runCli(['dispute', 'resolve', '--task', task.id, '--outcome', 'pay', '--note', 'Checked the result', '--json'], env);
      expect(resolved.code).toBe(0);
      expect(jsonLine(resolved.stdout)).toEqual({ id: task.id, status: 'completed', approvedBy: 'operator' });
      expect((await api.get(`/v1/tasks/${task.id}`, { key: requester.apiKey })).body.data.status).toBe('completed');
      const again = await runCli(['dispute', 'resolve', '--task', task.id, '--outcome', 'refund', '--note', 'n'], env);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain('completed');

      const stopped = await server.stop('SIGTERM');
      expect(stopped.code).toBe(0);
    }, 240_000);
  });
}

// Each run tests its own database: the PGlite run the embedded one, the PostgreSQL run the server.
if (!usingPostgres()) cliScenario('on the embedded database (DATA_DIR)', async () => ({ DATA_DIR: await embeddedDir() }));

describe.runIf(usingPostgres())('with DATABASE_URL', () => {
  let db: TestDatabase;
  afterAll(() => db?.close());
  // The server key still lives under DATA_DIR; the data is in the PostgreSQL database.
  cliScenario('on a PostgreSQL database', async () => {
    db = await createTestDatabase();
    return { DATABASE_URL: db.url, DATA_DIR: await tempDir() };
  });
});

describe.concurrent('usage', () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    env = { DATA_DIR: await tempDir() };
  });

  const expectFullUsage = (text: string) => {
    expect(text).toContain('user create --email E');
    expect(text).toContain('apikey create --user ID');
    expect(text).toContain('apikey revoke --key');
    expect(text).toContain('apikey list --user ID');
  };

  it('a missing command prints the usage and exits 2', async () => {
    const run = await runCli([], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^usage: /);
    expectFullUsage(run.stderr);
  }, 120_000);

  it('an unknown command is named as unknown, with the usage, and exits 2', async () => {
    const runs = await Promise.all([['user'], ['frobnicate', '--json'], ['apikey', 'rotate']].map((args) => runCli(args, env)));
    expect(runs.map((run) => run.stderr.split('\n')[0])).toEqual(['unknown command: user', 'unknown command: frobnicate', 'unknown command: apikey rotate']);
    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expectFullUsage(run.stderr);
    }
  }, 120_000);

  it('--help prints the usage on standard output and exits 0, for all commands or one', async () => {
    const [all, one] = await Promise.all([runCli(['--help'], env), runCli(['apikey', 'create', '--help'], env)]);
    expect(all).toMatchObject({ code: 0, stderr: '' });
    expect(all.stdout).toMatch(/^usage: /);
    expectFullUsage(all.stdout);
    expect(one).toMatchObject({ code: 0, stderr: '' });
    expect(one.stdout.trim()).toBe('usage: npm run --silent cli -- apikey create --user ID [--name N] [--json]');
  }, 120_000);

  it('an unknown option prints the command’s usage and exits 2', async () => {
    const run = await runCli(['user', 'create', '--email', 'x@example.com', '--mail', 'y'], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('usage: user create --email E');
  }, 120_000);

  it('a missing required option names it and exits non-zero', async () => {
    const run = await runCli(['apikey', 'create', '--json'], env);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr).error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('--user') });
  }, 120_000);
});
