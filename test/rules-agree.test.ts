// Rules that the service states once and uses in two forms, TypeScript on a row it read and SQL on the row
// as a statement finds it: the two forms agree, row by row, on the database.
//   - routing eligibility (services/routing.ts): the agent store's read and the reasons an agent is passed over;
//   - the state a delivery waits for (the lifecycle's DELIVERY_WAITS_FOR and stores/delivery-waits.ts);
//   - an attempt taken (delivery/attempt-verdict.ts) and the track record's SQL for it (stores/attempt-taken.ts);
//   - whether a delivered attempt changes the endpoint's state (services/endpoint-health.ts deliveredChangesEndpoint).
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Agent } from '../src/generated/prisma/client.js';
import { judgeAttempt, TAKEN_STATUSES } from '../src/delivery/attempt-verdict.js';
import { EndpointState } from '../src/generated/kysely/types.js';
import { DELIVERY_WAITS_FOR, TASK_STATUSES, deliveryWaitsFor } from '../src/lifecycle/task-lifecycle.js';
import { deliveredChangesEndpoint } from '../src/services/endpoint-health.js';
import { WORKING } from '../src/lifecycle/task-lifecycle.js';
import { eligibleConditions, passOverReasons, type RouteCriteria } from '../src/services/routing.js';
import { takenStatusSql } from '../src/stores/attempt-taken.js';
import { agentPool } from '../src/stores/agent-store.js';
import { taskWaitsForDelivery } from '../src/stores/delivery-waits.js';
import { describe, expect, test } from './support/fixtures.js';

describe('rules stated once agree in both their forms', () => {
  test('routing: the agents the eligible read returns are exactly those with no reason to pass them over', async ({ server, owner }) => {
    const now = server.app.services.deps.clock.now();
    const capability = `rules-${randomBytes(4).toString('hex')}`;
    type Figures = Pick<Agent, 'status' | 'healthStatus' | 'deliveryState' | 'priceCents' | 'trustTier' | 'recentSuccessRate' | 'verified' | 'p95CompletionMs'>;
    const variants: Array<Partial<Figures>> = [
      {},
      { status: 'inactive' },
      { healthStatus: 'unhealthy' },
      { healthStatus: 'healthy' },
      { deliveryState: 'disabled' },
      { deliveryState: 'failing' },
      { priceCents: 500 },
      { priceCents: 100 },
      { trustTier: 'gold' },
      { trustTier: 'bronze' },
      { recentSuccessRate: 0.9 },
      { recentSuccessRate: 0.5 },
      { verified: true },
      { p95CompletionMs: 1000 },
      { p95CompletionMs: 10 * 3_600_000 },
      { trustTier: 'gold', recentSuccessRate: 0.95, verified: true, priceCents: 50, p95CompletionMs: 500 },
    ];
    for (const [i, variant] of variants.entries()) {
      await server.prisma.agent.create({
        data: {
          id: `agt_${capability}_${i}`,
          ownerId: owner.id,
          name: `Rules ${i}`,
          slug: `${capability}-${i}`,
          endpoint: 'https://agent.example.com/tasks',
          capabilities: [capability],
          ...variant,
        },
      });
    }
    const criteria: RouteCriteria[] = [
      { capabilities: [capability], protocols: [], maxPriceCents: null },
      { capabilities: [capability], protocols: [], maxPriceCents: 100 },
      {
        capabilities: [capability],
        protocols: [],
        maxPriceCents: 200,
        requirements: { minTrustTier: 'silver', minSuccessRate: 0.8, verifiedOnly: true, maxPriceCents: null, deadline: new Date(now.getTime() + 3_600_000) },
      },
      {
        capabilities: [capability],
        protocols: [],
        maxPriceCents: null,
        requirements: { minTrustTier: null, minSuccessRate: null, verifiedOnly: false, maxPriceCents: 400, deadline: new Date(now.getTime() + 60_000) },
      },
    ];
    for (const c of criteria) {
      const pool = async (eligible: boolean) =>
        (await agentPool(server.sql, { capabilities: c.capabilities, protocols: [], conditions: eligibleConditions(c, now), eligible, inFlightStatuses: WORKING, inFlightUpTo: 100, take: 100 }))
          .map((a) => a.id)
          .sort();
      const all = await server.prisma.agent.findMany({ where: { capabilities: { has: capability } }, orderBy: { id: 'asc' } });
      const judged = all.filter((agent) => passOverReasons(agent, c, now).length === 0);
      expect(await pool(true)).toEqual(judged.map((a) => a.id));
      expect(await pool(false)).toEqual(all.filter((agent) => passOverReasons(agent, c, now).length > 0).map((a) => a.id));
      // Some agents pass and some do not, so the check says something.
      expect(judged.length).toBeGreaterThan(0);
      expect(judged.length).toBeLessThan(all.length);
    }
  });

  test('deliveries: the SQL form of the state a delivery waits for is the lifecycle table, for every type and state', async ({ server }) => {
    const types = [...Object.keys(DELIVERY_WAITS_FOR), 'a2a.get', 'a2a.cancel'];
    const pairs = types.flatMap((type) => TASK_STATUSES.map((status) => ({ type, status })));
    const rows = sql.join(pairs.map((p) => sql`(${p.type}::text, ${p.status}::text)`));
    const { rows: answers } = await sql<{ type: string; status: string; waits: boolean }>`
      SELECT d.type, d.status, ${taskWaitsForDelivery('d.type', 'd.status')} AS waits FROM (VALUES ${rows}) AS d(type, status)`.execute(server.sql);
    expect(answers.map((a) => [a.type, a.status, a.waits])).toEqual(pairs.map((p) => [p.type, p.status, deliveryWaitsFor(p.type) === p.status]));
  });

  test('attempts: the SQL the track record dates a delivery by takes exactly the answers the one verdict takes', async ({ server }) => {
    // Every status a server can send, and no answer at all (a NULL status code: a transport error).
    const codes: Array<number | null> = [null, ...Array.from({ length: 500 }, (_, i) => 100 + i)];
    const rows = sql.join(codes.map((code) => sql`(${code}::int)`));
    const { rows: answers } = await sql<{ code: number | null; taken: boolean }>`
      SELECT a.code, ${takenStatusSql('a.code', TAKEN_STATUSES)} IS TRUE AS taken FROM (VALUES ${rows}) AS a(code)`.execute(server.sql);
    const verdict = (code: number | null) => judgeAttempt(code === null ? { kind: 'error', error: 'no answer' } : { kind: 'response', status: code }).taken;
    expect(answers.map((a) => [a.code, a.taken])).toEqual(codes.map((code) => [code, verdict(code)]));
  });

  test('endpoints: the rows a delivered attempt writes are exactly those its row form says it changes', async ({ server, owner }) => {
    const prefix = `endpoint-${randomBytes(4).toString('hex')}`;
    const figures = Object.values(EndpointState).flatMap((deliveryState) => [0, 1, 7].map((endpointFailStreak) => ({ deliveryState, endpointFailStreak })));
    for (const [i, f] of figures.entries()) {
      await server.prisma.agent.create({
        data: { id: `agt_${prefix}_${i}`, ownerId: owner.id, name: `Endpoint ${i}`, slug: `${prefix}-${i}`, endpoint: 'https://agent.example.com/tasks', ...f },
      });
    }
    const all = await server.sql.selectFrom('agents').select(['id', 'deliveryState', 'endpointFailStreak']).where('slug', 'like', `${prefix}-%`).orderBy('id').execute();
    const changed = await server.sql.selectFrom('agents').select('id').where('slug', 'like', `${prefix}-%`).where(deliveredChangesEndpoint.sql).orderBy('id').execute();
    expect(all).toHaveLength(figures.length);
    expect(changed.map((a) => a.id)).toEqual(all.filter(deliveredChangesEndpoint.row).map((a) => a.id));
    // Some change and some do not, so the check says something.
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(all.length);
  });
});
