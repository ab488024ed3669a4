// Chooses the agent for a task. Eligible agents are active, not unhealthy, offer every required
// capability and protocol, and cost no more than the task's price cap. They are ranked by one score:
//
//   score = 0.35·trust + 0.20·rating + 0.15·success + 0.10·health + 0.10·load + 0.10·price
//
//   trust    the agent's trustScore (0..1)
//   rating   (avgRating − 1) / 4, or 0.5 without ratings
//   success  completed / (completed + failed), or 0.5 without finished tasks
//   health   1 healthy, 0.5 unknown
//   load     1 / (1 + tasks in flight), so busy agents yield to idle ones
//   price    1 − price / cap with a cap, else 1 / (1 + price / 1000 cents)
//
// Ties go to the older agent, then the smaller id, so the choice is deterministic.
import type { Db } from '../db/client.js';
import type { Agent, Prisma } from '../generated/prisma/client.js';

export interface RouteCriteria {
  capabilities: string[];
  protocols: string[];
  maxPriceCents: number | null;
}

export interface ScoredAgent {
  agent: Agent;
  score: number;
}

// Enough candidates to rank well without reading the whole registry for a common capability.
const CANDIDATE_POOL = 200;

export function eligibleWhere(c: RouteCriteria): Prisma.AgentWhereInput {
  return {
    status: 'active',
    healthStatus: { not: 'unhealthy' },
    // An endpoint disabled after failing for long (endpoint-health.ts) gets no new tasks.
    deliveryState: { not: 'disabled' },
    ...(c.capabilities.length ? { capabilities: { hasEvery: c.capabilities } } : {}),
    ...(c.protocols.length ? { protocols: { hasEvery: c.protocols } } : {}),
    ...(c.maxPriceCents !== null ? { priceCents: { lte: c.maxPriceCents } } : {}),
  };
}

export function scoreAgent(agent: Agent, inFlight: number, maxPriceCents: number | null): number {
  const rating = agent.ratingCount > 0 ? (agent.ratingSum / agent.ratingCount - 1) / 4 : 0.5;
  const finished = agent.completedCount + agent.failedCount;
  const success = finished > 0 ? agent.completedCount / finished : 0.5;
  const health = agent.healthStatus === 'healthy' ? 1 : 0.5;
  const load = 1 / (1 + inFlight);
  const price =
    maxPriceCents !== null && maxPriceCents > 0 ? 1 - agent.priceCents / maxPriceCents : maxPriceCents === 0 ? 1 : 1 / (1 + agent.priceCents / 1000);
  const score = 0.35 * agent.trustScore + 0.2 * rating + 0.15 * success + 0.1 * health + 0.1 * load + 0.1 * price;
  return Math.round(score * 10_000) / 10_000;
}

// The eligible agents, best first: `limit` of them, or every candidate read.
export async function rankAgents(db: Db, criteria: RouteCriteria, limit = CANDIDATE_POOL): Promise<ScoredAgent[]> {
  const candidates = await db.agent.findMany({
    where: eligibleWhere(criteria),
    orderBy: [{ trustScore: 'desc' }, { createdAt: 'asc' }, { id: 'asc' }],
    take: CANDIDATE_POOL,
  });
  if (candidates.length === 0) return [];
  const busy = await db.task.groupBy({
    by: ['agentId'],
    where: { agentId: { in: candidates.map((a) => a.id) }, status: { in: ['matched', 'in_progress'] } },
    _count: { _all: true },
  });
  const inFlight = new Map(busy.map((b) => [b.agentId, b._count._all]));
  return candidates
    .map((agent) => ({ agent, score: scoreAgent(agent, inFlight.get(agent.id) ?? 0, criteria.maxPriceCents) }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.agent.createdAt.getTime() - b.agent.createdAt.getTime() ||
        (a.agent.id < b.agent.id ? -1 : a.agent.id > b.agent.id ? 1 : 0),
    )
    .slice(0, limit);
}
