// Requirements on a task (minTrustTier, minSuccessRate, verifiedOnly, maxPriceCents, deadline) and
// explainable routing: the dry run and the stored explanation give each term of the score and, for agents
// passed over, the reason.
import { describe, expect, testWith } from './support/fixtures.js';
import { untilNoJobDue } from './support/jobs.js';
import { newId } from '../src/ids.js';

const test = testWith({
  agentProfile: { name: 'Baseline', capabilities: ['baseline'], protocols: ['http'] },
});

describe('requirements and explainable routing', () => {
  // Agents offering `skill`, made by `owner`, then adjusted in the database (tier, verification, track record).
  async function agentsFor(server: any, owner: any, endpoint: string, skill: string) {
    const make = async (name: string, extra: Record<string, unknown> = {}) =>
      (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name, endpoint, capabilities: [skill], ...extra } })).body.data.id as string;
    const gold = await make(`${skill} gold`, { priceCents: 0 });
    const bronze = await make(`${skill} bronze`);
    const slow = await make(`${skill} slow`);
    const dear = await make(`${skill} dear`, { priceCents: 5_000 });
    const off = await make(`${skill} off`);
    // A new agent's trust is worked out by the agent.changed job: let it finish before setting the figures.
    await untilNoJobDue(server.prisma, { name: 'agent.changed' });
    await server.prisma.agent.update({ where: { id: gold }, data: { trustTier: 'gold', trustScore: 0.8, verified: true, recentSuccessRate: 0.95 } });
    await server.prisma.agent.update({ where: { id: bronze }, data: { trustTier: 'bronze', trustScore: 0.4, recentSuccessRate: 0.6 } });
    await server.prisma.agent.update({ where: { id: slow }, data: { trustTier: 'gold', trustScore: 0.7, verified: true, recentSuccessRate: 0.99, p95CompletionMs: 3 * 3600_000 } });
    await server.prisma.agent.update({ where: { id: off }, data: { status: 'inactive' } });
    return { gold, bronze, slow, dear, off };
  }

  test('the dry run gives each candidate its score terms and each passed-over agent its reasons', async ({ server, owner, requester, agent }) => {
    const a = await agentsFor(server, owner, agent.http.url, 'explained');
    const inAnHour = new Date(Date.now() + 3600_000).toISOString();
    const res = await server.api.post('/v1/tasks/route', {
      key: requester.apiKey,
      body: { capabilities: ['explained'], maxPriceCents: 1000, requirements: { minTrustTier: 'silver', deadline: inAnHour } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([a.gold]);
    const [chosen] = res.body.data;
    expect(chosen.terms.map((t: { term: string }) => t.term)).toEqual(['capability', 'trust', 'rating', 'success', 'health', 'load', 'price']);
    expect(chosen.terms.find((t: { term: string }) => t.term === 'trust')).toMatchObject({ value: 0.8, weight: 0.315 });
    expect(chosen.terms.reduce((sum: number, t: { weight: number }) => sum + t.weight, 0)).toBeCloseTo(1, 6);
    expect(chosen.score).toBeCloseTo(chosen.terms.reduce((sum: number, t: { value: number; weight: number }) => sum + t.value * t.weight, 0), 3);
    const reasons = Object.fromEntries(res.body.passedOver.map((p: { id: string; reasons: string[] }) => [p.id, p.reasons]));
    expect(reasons).toEqual({
      [a.bronze]: ['below_min_trust_tier'],
      [a.slow]: ['would_miss_deadline'],
      [a.dear]: ['over_price', 'below_min_trust_tier'],
      [a.off]: ['inactive', 'below_min_trust_tier'],
    });

    const strict = await server.api.post('/v1/tasks/route', { key: requester.apiKey, body: { capabilities: ['explained'], requirements: { verifiedOnly: true, minSuccessRate: 0.97 } } });
    expect(strict.body.data.map((c: { id: string }) => c.id)).toEqual([a.slow]);
    const strictReasons = Object.fromEntries(strict.body.passedOver.map((p: { id: string; reasons: string[] }) => [p.id, p.reasons]));
    expect(strictReasons[a.gold]).toEqual(['below_min_success_rate']);
    expect(strictReasons[a.bronze]).toEqual(['below_min_success_rate', 'not_verified']);
  });

  test('an agent whose inputSchema refuses the input is passed over with input_refused', async ({ server, owner, requester, agent }) => {
    const schema = JSON.stringify({ type: 'object', required: ['text'] });
    const picky = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Picky', endpoint: agent.http.url, capabilities: ['picky'], inputSchema: schema } })).body.data.id;
    const res = await server.api.post('/v1/tasks/route', { key: requester.apiKey, body: { capabilities: ['picky'], input: { words: 1 } } });
    expect(res.body.data).toEqual([]);
    expect(res.body.passedOver).toEqual([expect.objectContaining({ id: picky, reasons: ['input_refused'] })]);
  });

  test('a routed task stores why it went where it went; a named agent that misses a requirement is 422', async ({ server, owner, requester, agent }) => {
    const a = await agentsFor(server, owner, agent.http.url, 'stored');
    const created = await server.api.post('/v1/tasks', {
      key: requester.apiKey,
      body: { title: 'T', description: 'D', capabilities: ['stored'], requirements: { minTrustTier: 'gold', maxPriceCents: 100 } },
    });
    expect(created.status).toBe(201);
    const task = created.body.data;
    expect(task.agentId).toBe(a.gold);
    expect(task.requirements).toMatchObject({ minTrustTier: 'gold', maxPriceCents: 100, verifiedOnly: false });
    expect(task.routingExplanation).toMatchObject({ named: false, chosen: { agentId: a.gold }, candidates: [{ agentId: a.slow }] });
    expect(task.routingExplanation.chosen.terms).toHaveLength(7);
    expect(task.routingExplanation.passedOver).toEqual(
      expect.arrayContaining([{ agentId: a.bronze, reasons: ['below_min_trust_tier'] }, { agentId: a.dear, reasons: ['over_price', 'below_min_trust_tier'] }]),
    );

    for (const [agentId, requirements, field] of [
      [a.bronze, { minTrustTier: 'gold' }, 'requirements.minTrustTier'],
      [a.bronze, { verifiedOnly: true }, 'requirements.verifiedOnly'],
      [a.bronze, { minSuccessRate: 0.9 }, 'requirements.minSuccessRate'],
      [a.dear, { maxPriceCents: 100 }, 'requirements.maxPriceCents'],
    ] as const) {
      const named = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'T', description: 'D', agentId, requirements } });
      expect(named.status, JSON.stringify(requirements)).toBe(422);
      expect(named.body.error).toMatchObject({ code: 'UNPROCESSABLE', field });
    }
    const soon = new Date(Date.now() + 60_000).toISOString();
    const late = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'T', description: 'D', agentId: a.slow, requirements: { deadline: soon } } });
    expect(late.status).toBe(422);
    expect(late.body.error.field).toBe('requirements.deadline');
    // (The gold agent's figures are real by now: its delivery made the service recount them.)
    const ok = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'T', description: 'D', agentId: a.slow, requirements: { minTrustTier: 'silver' } } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.data.routingExplanation).toMatchObject({ named: true, chosen: { agentId: a.slow } });
  });

  test('a task no agent meets waits for one', async ({ server, owner, requester, agent }) => {
    await agentsFor(server, owner, agent.http.url, 'waiting');
    const created = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'T', description: 'D', capabilities: ['waiting'], requirements: { minTrustTier: 'diamond' } } });
    expect(created.body.data).toMatchObject({ status: 'pending', agentId: null });
    const diamond = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'waiting diamond', endpoint: agent.http.url, capabilities: ['waiting'] } })).body.data.id;
    await untilNoJobDue(server.prisma, { name: 'agent.changed' });
    await server.prisma.agent.update({ where: { id: diamond }, data: { trustTier: 'diamond' } });
    await server.app.services.tasks.routeWaiting(created.body.data.id);
    const routed = (await server.api.get(`/v1/tasks/${created.body.data.id}`, { key: requester.apiKey })).body.data;
    expect(routed.agentId).toBe(diamond);
  });

  test('bad requirements are 400 naming the field, over REST and GraphQL', async ({ server, requester, agent }) => {
    expect(agent.id).toBeTruthy();
    const create = (requirements: unknown) => server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'T', description: 'D', requirements } });
    for (const [requirements, field] of [
      [{ minTrustTier: 'platinum' }, 'requirements.minTrustTier'],
      [{ minSuccessRate: 1.5 }, 'requirements.minSuccessRate'],
      [{ minSuccessRate: 'high' }, 'requirements.minSuccessRate'],
      [{ verifiedOnly: 'yes' }, 'requirements.verifiedOnly'],
      [{ maxPriceCents: -1 }, 'requirements.maxPriceCents'],
      [{ deadline: 'tomorrow' }, 'requirements.deadline'],
      [{ deadline: '2001-01-01T00:00:00Z' }, 'requirements.deadline'],
      [{ colour: 'red' }, 'requirements.colour'],
    ] as const) {
      const res = await create(requirements);
      expect(res.status, JSON.stringify(requirements)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field });
    }
    const gql = await server.api.post('/graphql', {
      key: requester.apiKey,
      body: { query: 'mutation { explainRoute(input: { requirements: { minSuccessRate: 2 } }) { candidates { score } } }' },
    });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'requirements.minSuccessRate' });
    const explained = await server.api.post('/graphql', {
      key: requester.apiKey,
      body: { query: 'mutation { explainRoute(input: { capabilities: ["baseline"] }) { candidates { agent { name } terms { term weight } } passedOver { reasons } } }' },
    });
    expect(explained.body.data.explainRoute.candidates[0].agent.name).toBe('Baseline');
    expect(explained.body.data.explainRoute.candidates[0].terms[0]).toEqual({ term: 'capability', weight: 0.1 });
  });

  test('a capability offered by more agents than the candidate pool still routes among the eligible ones', async ({ server, owner, requester, agent }) => {
    // 230 inactive agents with the highest trust would fill a pool of 200 read in trust order; the
    // eligible one below them must still be chosen, and the passed-over list shows the first ten.
    const now = new Date();
    const crowd = Array.from({ length: 230 }, (_, i) => ({
      id: newId('agt'),
      ownerId: owner.id,
      name: `crowd ${i}`,
      slug: `crowd-${i}-${now.getTime()}`,
      endpoint: agent.http.url,
      capabilities: ['crowded'],
      status: 'inactive' as const,
      trustScore: 0.9 - i / 1000,
      updatedAt: now,
    }));
    await server.prisma.agent.createMany({ data: crowd });
    const eligible = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'crowded eligible', endpoint: agent.http.url, capabilities: ['crowded'] } })).body.data.id as string;
    const res = await server.api.post('/v1/tasks/route', { key: requester.apiKey, body: { capabilities: ['crowded'] } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([eligible]);
    expect(res.body.passedOver.map((p: { id: string }) => p.id)).toEqual(crowd.slice(0, 10).map((a) => a.id));
    expect(res.body.passedOver.every((p: { reasons: string[] }) => p.reasons.includes('inactive'))).toBe(true);
  });
});
