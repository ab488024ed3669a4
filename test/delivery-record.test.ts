// A delivered first attempt to an agent with nothing to change is recorded with its task's move in one
// statement that leaves the agent's row alone (agent-figures.test.ts shows the row unwritten). That
// statement goes by the row as it is when the attempt is recorded, not as the attempt read it before its
// request: failures recorded while the request was out are ended by the success, as ever.
import { sql } from 'kysely';
import { onTestFinished } from 'vitest';
import { waitForStatus } from './support/agent.js';
import { expect, testWith } from './support/fixtures.js';
import { HEALTHY_REWRITE_MS, recordHealthOutcome, successLeavesHealth, type HealthFigures } from '../src/reputation/health-evidence.js';
import { quietSuccessForms } from '../src/stores/agent-health-store.js';

const test = testWith({ agentProfile: { name: 'Flaky' } });

test('a success ends the failures recorded while its request was out', async ({ server, requester, owner, agent }) => {
  const { id: agentId, http: agentHttp } = agent;
  const create = async () => (await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId } })).body.data.id as string;
  const status = (id: string) => server.api.get(`/v1/tasks/${id}`, { key: requester.apiKey }).then((r) => r.body.data);
  const agentRow = () =>
    server.sql
      .selectFrom('agents')
      .select(['deliveryState', 'endpointFailStreak', 'endpointFailingSince', 'healthStatus', 'healthFailStreak'])
      .where('id', '=', agentId)
      .executeTakeFirstOrThrow();

  // A first delivery makes the agent healthy; its endpoint is active.
  const first = await create();
  await waitForStatus(() => status(first), ['in_progress']);
  expect(await agentRow()).toMatchObject({ deliveryState: 'active', endpointFailStreak: 0, healthStatus: 'healthy', healthFailStreak: 0 });

  // The second delivery reads that row, then its request is held while two other attempts fail.
  const release = agentHttp.hold();
  onTestFinished(release);
  const second = await create();
  await agentHttp.waitFor(2);
  await sql`UPDATE agents SET delivery_state = 'failing', endpoint_fail_streak = 2, endpoint_failing_since = now(),
    health_fail_streak = 2, last_unhealthy_at = now() WHERE id = ${agentId}`.execute(server.sql);

  release();
  await waitForStatus(() => status(second), ['in_progress']);
  expect(await agentRow()).toEqual({ deliveryState: 'active', endpointFailStreak: 0, endpointFailingSince: null, healthStatus: 'healthy', healthFailStreak: 0 });
  const [delivery] = (await server.api.get(`/v1/agents/${agentId}/deliveries`, { key: owner.apiKey })).body.data;
  expect(delivery.status).toBe('succeeded');
  expect(delivery.attempts.map((a: { number: number; statusCode: number }) => [a.number, a.statusCode])).toEqual([[1, 200]]);
});

// The quiet record skips recordHealthOutcome when the row says a success would write nothing: the row
// read before (successLeavesHealth.row) and the row when the record runs (its rule's SQL) must agree with what
// recordHealthOutcome writes, evidence by evidence.
test('a success writes health evidence exactly when the quiet record would not go ahead', async ({ server, agent }) => {
  const agentId = agent.id;
  const { sql: db, clock } = server.app.services.deps;
  const now = clock.now();
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const fresh = ago(1000);
  const old = ago(HEALTHY_REWRITE_MS + 1000);
  const cases: Array<[string, Partial<HealthFigures>]> = [
    ['healthy, fresh', {}],
    ['healthy, last success old', { lastHealthyAt: old }],
    ['healthy, checked long ago', { healthCheckedAt: old }],
    ['healthy, never checked', { healthCheckedAt: null }],
    ['a failure since', { healthFailStreak: 1 }],
    ['unknown', { healthStatus: 'unknown', lastHealthyAt: null }],
    ['unhealthy', { healthStatus: 'unhealthy', healthFailStreak: 3 }],
  ];
  const writes: Record<string, boolean> = {};
  const quiet: Record<string, [boolean, boolean]> = {};
  for (const [name, evidence] of cases) {
    const row: HealthFigures = { healthStatus: 'healthy', healthFailStreak: 0, lastHealthyAt: fresh, healthCheckedAt: fresh, ...evidence };
    await db.updateTable('agents').set(row).where('id', '=', agentId).execute();
    const atRecord = await db.selectFrom('agents').select('id').where('id', '=', agentId).where(quietSuccessForms.sql(successLeavesHealth.rule(now))).executeTakeFirst();
    quiet[name] = [successLeavesHealth.row(row, now), atRecord !== undefined];
    writes[name] = (await db.transaction().execute((tx) => recordHealthOutcome(tx, agentId, true, now))) !== null;
  }
  expect(quiet).toEqual(Object.fromEntries(cases.map(([name]) => [name, [!writes[name], !writes[name]]])));
  // Only fresh evidence of a healthy agent is left alone.
  expect(Object.entries(writes).filter(([, wrote]) => !wrote).map(([name]) => name)).toEqual(['healthy, fresh']);
});
