// The simulated processor cannot be used to forge payments: production refuses to start with it unless
// the operator says so by name, its confirmation endpoint is the requester's only and absent in
// production, and its secrets come from the server key (see unit/payments/create-payment-provider.test.ts).
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDataDir, usingPostgres, type TestDatabase } from './support/database.js';
import { apiClient } from './support/http.js';
import { startPaymentWorld, type PaymentWorld } from './support/payments.js';
import { killAll, runCli, runMain, startServerProcess, type ServerProcess } from './support/processes.js';
import { startTestAgent, type TestAgent } from './support/agent.js';

describe('starting in production with the simulated processor', () => {
  const servers: ServerProcess[] = [];
  let dataDir: string;
  let db: TestDatabase | null = null;
  let databaseEnv: Record<string, string>;

  beforeAll(async () => {
    // On PGlite a copy of the suite's migrated database: the CLI's first command need not create one.
    dataDir = await testDataDir('tm-payments-security-');
    db = usingPostgres() ? await createTestDatabase() : null;
    databaseEnv = { DATA_DIR: dataDir, SECRET_KEY: 'd'.repeat(64), ...(db ? { DATABASE_URL: db.url } : {}) };
  });

  afterAll(async () => {
    await killAll(servers);
    await db?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is refused without STRIPE_SECRET_KEY, with one line naming the setting that allows it', async () => {
    const run = await runMain({ ...databaseEnv, NODE_ENV: 'production' });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/STRIPE_SECRET_KEY/);
    expect(lines[0]).toMatch(/ALLOW_SIMULATED_PAYMENTS=true/);
  }, 60_000);

  it('starts with ALLOW_SIMULATED_PAYMENTS=true, and the confirmation endpoint is absent', async () => {
    const env = { ...databaseEnv, NODE_ENV: 'production', ALLOW_SIMULATED_PAYMENTS: 'true', ALLOW_OPEN_SIGNUP_WITHOUT_MAIL: 'true' };
    const created = await runCli(['user', 'create', '--email', 'prod@example.com', '--json'], env);
    expect(created.code).toBe(0);
    const { apiKey } = JSON.parse(created.stdout) as { apiKey: string };
    const server = await startServerProcess(env);
    servers.push(server);
    const res = await apiClient(server.url).post('/v1/billing/simulate/confirm', { key: apiKey, body: { clientSecret: 'pi_sim_0123456789abcdef01234567_secret_0123456789abcdef01234567' } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect((await server.stop()).code).toBe(0);
  }, 240_000);
});

describe('the simulated confirmation endpoint', () => {
  let world: PaymentWorld;
  let agent: TestAgent;
  let agentId: string;

  beforeAll(async () => {
    world = await startPaymentWorld('simulated');
    agent = await startTestAgent();
    const owner = await world.server.createUser();
    const created = await world.server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Paid', endpoint: agent.url, priceCents: 500 } });
    expect(created.status).toBe(201);
    agentId = created.body.data.id;
  });

  afterAll(async () => {
    await world?.close();
    await agent?.close();
  });

  it('needs the requester’s credentials: 401 without, 403 for another user, 200 for the requester', async () => {
    const api = world.server.api;
    const requester = await world.server.createUser();
    const stranger = await world.server.createUser();
    const task = await api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Held', description: 'on a card', agentId } });
    expect(task.status).toBe(201);
    const body = { clientSecret: task.body.clientSecret as string };

    const anonymous = await api.post('/v1/billing/simulate/confirm', { body });
    expect(anonymous.status).toBe(401);
    const other = await api.post('/v1/billing/simulate/confirm', { key: stranger.apiKey, body });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('FORBIDDEN');
    expect((await world.server.prisma.payment.findUniqueOrThrow({ where: { taskId: task.body.data.id } })).status).toBe('pending');

    const own = await api.post('/v1/billing/simulate/confirm', { key: requester.apiKey, body });
    expect(own.status).toBe(200);
    expect(own.body.data.status).toBe('authorized');
  });
});
