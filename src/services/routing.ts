// Chooses the agent for a task. Eligible agents are active, not unhealthy, offer every required
// capability and protocol, cost no more than the task's price cap, and meet the task's requirements
// (trust tier, success rate, verification, deadline). They are ranked by one score, the weighted sum of:
//
//   capability 0.10  share of the task's capabilities the agent offers (1 for every eligible agent: they
//                    are required; the term makes the match visible in explanations)
//   trust      0.315 the agent's trustScore (0..1)
//   rating     0.18  (avgRating − 1) / 4, or 0.5 without ratings
//   success    0.135 completed / (completed + failed), or 0.5 without finished tasks
//   health     0.09  1 healthy, 0.5 unknown
//   load       0.09  1 / (1 + tasks in flight), so busy agents yield to idle ones
//   price      0.09  1 − price / cap with a cap, else 1 / (1 + price / 1000 cents)
//
// Ties go to the older agent, then the smaller id, so the choice is deterministic. Agents that match the
// task's capabilities and protocols but are not eligible are reported with the reasons (explanations).
import type { SqlDb } from '../db/kysely.js';
import type { TrustTier } from '../generated/prisma/client.js';
import { agentPool, type AgentConditions, type AgentPoolQuery, type AgentWithLoad, type ColumnCondition, type RoutingAgentRow } from '../stores/agent-store.js';
import { TRUST_TIERS, type TaskRequirements } from './task-input.js';
import { WORKING } from '../lifecycle/task-lifecycle.js';

export interface RouteCriteria {
  capabilities: string[];
  protocols: string[];
  maxPriceCents: number | null;
  requirements?: TaskRequirements | null;
}

export const WEIGHTS = { capability: 0.1, trust: 0.315, rating: 0.18, success: 0.135, health: 0.09, load: 0.09, price: 0.09 } as const;
export type Term = keyof typeof WEIGHTS;

export interface ScoreTerm {
  term: Term;
  value: number;
  weight: number;
}

// An agent as routing reads it: the columns it judges, ranks and pays by (stores/agent-store.ts).
export type RoutingAgent = RoutingAgentRow;

export interface ScoredAgent {
  agent: RoutingAgent;
  score: number;
  terms: ScoreTerm[];
}

// Why an agent that offers what the task needs was not a candidate.
export type PassOverReason =
  | 'inactive'
  | 'unhealthy'
  | 'endpoint_disabled'
  | 'over_price'
  | 'below_min_trust_tier'
  | 'below_min_success_rate'
  | 'not_verified'
  | 'would_miss_deadline'
  | 'input_refused';

export interface PassedOver {
  agent: RoutingAgent;
  reasons: PassOverReason[];
}

// Enough candidates to rank well without reading the whole registry for a common capability.
const CANDIDATE_POOL = 200;
// Passed-over agents reported in an explanation.
const PASSED_OVER_SHOWN = 10;
// An agent's tasks in flight counted for its idleness term (or up to its maxConcurrentTasks, if more):
// beyond 100 the term changes by less than 0.01, and counting a busy agent's every task on each create
// would cost the database more as the agent got busier.
const IN_FLIGHT_COUNTED = 100;

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

export function tiersAtLeast(min: TrustTier): TrustTier[] {
  return TRUST_TIERS.slice(TRUST_TIERS.indexOf(min)) as TrustTier[];
}

// The price cap: the task's own and its requirement's, whichever is lower.
export function priceCap(c: RouteCriteria): number | null {
  const caps = [c.maxPriceCents, c.requirements?.maxPriceCents ?? null].filter((v): v is number => v !== null);
  return caps.length ? Math.min(...caps) : null;
}


// Eligibility, stated once: each rule names the reason an agent is passed over, the column it reads and
// the condition the column must meet. The read's filter (`eligibleConditions`, made SQL by the agent
// store) and the reasons given for an agent that was read (`passOverReasons`) are both made from this
// list, so they cannot disagree.
type Rule = { reason: PassOverReason } & { [K in keyof RoutingAgent]: { column: K } & ColumnCondition<RoutingAgent[K]> }[keyof RoutingAgent];

function eligibilityRules(c: RouteCriteria, now: Date): Rule[] {
  const cap = priceCap(c);
  const r = c.requirements;
  const rules: Array<Rule | false | null | undefined> = [
    { reason: 'inactive', column: 'status', equals: 'active' },
    { reason: 'unhealthy', column: 'healthStatus', not: 'unhealthy' },
    // An endpoint disabled after failing for long (endpoint-health.ts) gets no new tasks.
    { reason: 'endpoint_disabled', column: 'deliveryState', not: 'disabled' },
    cap !== null && { reason: 'over_price', column: 'priceCents', atMost: cap },
    r?.minTrustTier && { reason: 'below_min_trust_tier', column: 'trustTier', in: tiersAtLeast(r.minTrustTier) },
    // An agent without a success rate yet does not meet a minimum.
    r?.minSuccessRate != null && { reason: 'below_min_success_rate', column: 'recentSuccessRate', atLeast: r.minSuccessRate },
    r?.verifiedOnly && { reason: 'not_verified', column: 'verified', equals: true },
    // An agent whose recent p95 time to completion would finish after the deadline is passed over; one
    // without a track record yet is not known to miss it.
    r?.deadline && { reason: 'would_miss_deadline', column: 'p95CompletionMs', atMost: Math.floor(r.deadline.getTime() - now.getTime()), orNull: true },
  ];
  return rules.filter((rule): rule is Rule => !!rule);
}

function ruleHolds(rule: Rule, agent: RoutingAgent): boolean {
  const value: unknown = agent[rule.column];
  if ('equals' in rule) return value === rule.equals;
  if ('not' in rule) return value !== rule.not;
  if ('in' in rule) return (rule.in as readonly unknown[]).includes(value);
  if (value === null) return 'atMost' in rule && rule.orNull === true;
  return 'atLeast' in rule ? (value as number) >= rule.atLeast : (value as number) <= rule.atMost;
}

// The conditions an eligible agent meets, one per column, as the agent store's read takes them.
export function eligibleConditions(c: RouteCriteria, now: Date): AgentConditions {
  return Object.fromEntries(eligibilityRules(c, now).map(({ reason: _reason, column, ...condition }) => [column, condition])) as AgentConditions;
}

/** The reasons an agent that offers what the task needs is not eligible for it; empty when it is. */
export function passOverReasons(agent: RoutingAgent, c: RouteCriteria, now: Date): PassOverReason[] {
  return eligibilityRules(c, now)
    .filter((rule) => !ruleHolds(rule, agent))
    .map((rule) => rule.reason);
}

export function scoreTerms(agent: RoutingAgent, inFlight: number, maxPriceCents: number | null, capabilities: string[] = []): ScoreTerm[] {
  const offered = new Set(agent.capabilities);
  const capability = capabilities.length ? capabilities.filter((c) => offered.has(c)).length / capabilities.length : 1;
  const rating = agent.ratingCount > 0 ? (agent.ratingSum / agent.ratingCount - 1) / 4 : 0.5;
  const finished = agent.completedCount + agent.failedCount;
  const success = finished > 0 ? agent.completedCount / finished : 0.5;
  const health = agent.healthStatus === 'healthy' ? 1 : 0.5;
  const load = 1 / (1 + inFlight);
  const price =
    maxPriceCents !== null && maxPriceCents > 0 ? 1 - agent.priceCents / maxPriceCents : maxPriceCents === 0 ? 1 : 1 / (1 + agent.priceCents / 1000);
  const values: Record<Term, number> = { capability, trust: agent.trustScore, rating, success, health, load, price };
  return (Object.keys(WEIGHTS) as Term[]).map((term) => ({ term, value: round4(values[term]), weight: WEIGHTS[term] }));
}

// The score: the sum of each term's value times its weight.
export function scoreOf(terms: ScoreTerm[]): number {
  return round4(terms.reduce((sum, t) => sum + t.value * t.weight, 0));
}

export function scoreAgent(agent: RoutingAgent, inFlight: number, maxPriceCents: number | null, capabilities: string[] = []): number {
  return scoreOf(scoreTerms(agent, inFlight, maxPriceCents, capabilities));
}

// The agents that offer what the task asks for (its capabilities and protocols; agents outside it are not
// considered at all), in the pool's order (best trust, then the older agent, then the smaller id), each
// with its tasks in flight; `eligible` narrows them to the eligible agents, or to the others.
function pool(db: SqlDb, c: RouteCriteria, take: number, eligible?: { now: Date; eligible: boolean }): Promise<AgentWithLoad[]> {
  const q: AgentPoolQuery = { capabilities: c.capabilities, protocols: c.protocols, inFlightStatuses: WORKING, inFlightUpTo: IN_FLIGHT_COUNTED, take };
  return agentPool(db, eligible ? { ...q, conditions: eligibleConditions(c, eligible.now), eligible: eligible.eligible } : q);
}

export interface Ranking {
  // The eligible agents, best first.
  ranked: ScoredAgent[];
  // Agents that offer what the task needs but are not eligible, with why (best trust first).
  passedOver: PassedOver[];
}

/**
 * The eligible agents ranked (`limit` of them, or every candidate read) and the agents passed over. One
 * statement reads every agent that offers what the task needs, eligible or not, when there are no more
 * than a candidate pool of them (the common case); past that, the eligible pool is read apart, so that
 * ineligible agents cannot crowd eligible ones out of it, and the passed-over agents too when the first
 * read did not hold enough of them.
 */
export async function rankAgents(db: SqlDb, criteria: RouteCriteria, now: Date, limit = CANDIDATE_POOL): Promise<Ranking> {
  const offering = await pool(db, criteria, CANDIDATE_POOL + 1);
  let candidates: AgentWithLoad[];
  let passedOver: PassedOver[];
  const judged = offering.map((agent) => ({ agent, reasons: passOverReasons(agent, criteria, now) }));
  // The read is in the pool's order, so the first ineligible agents it saw are the first of all.
  passedOver = judged.filter((j) => j.reasons.length > 0).slice(0, PASSED_OVER_SHOWN);
  if (offering.length <= CANDIDATE_POOL) {
    candidates = judged.filter((j) => j.reasons.length === 0).map((j) => j.agent);
  } else {
    candidates = await pool(db, criteria, CANDIDATE_POOL, { now, eligible: true });
    if (passedOver.length < PASSED_OVER_SHOWN) passedOver = await passedOverAgents(db, criteria, now);
  }
  const inFlight = new Map(candidates.map((a) => [a.id, a.inFlight]));
  const cap = priceCap(criteria);
  // An agent at its maxConcurrentTasks comes after every agent with room, whatever its score.
  const full = (agent: RoutingAgent) => agent.maxConcurrentTasks !== null && (inFlight.get(agent.id) ?? 0) >= agent.maxConcurrentTasks;
  const ranked = candidates
    .map(({ inFlight: tasks, ...agent }) => {
      const terms = scoreTerms(agent, tasks, cap, criteria.capabilities);
      return { agent, terms, score: scoreOf(terms) };
    })
    .sort(
      (a, b) =>
        Number(full(a.agent)) - Number(full(b.agent)) ||
        b.score - a.score ||
        a.agent.createdAt.getTime() - b.agent.createdAt.getTime() ||
        (a.agent.id < b.agent.id ? -1 : a.agent.id > b.agent.id ? 1 : 0),
    )
    .slice(0, limit);
  return { ranked, passedOver };
}

// Agents that offer what the task needs but are not eligible, with why (best trust first).
async function passedOverAgents(db: SqlDb, criteria: RouteCriteria, now: Date): Promise<PassedOver[]> {
  const agents = await pool(db, criteria, PASSED_OVER_SHOWN, { now, eligible: false });
  return agents.map(({ inFlight: _inFlight, ...agent }) => ({ agent, reasons: passOverReasons(agent, criteria, now) }));
}

// What is stored with a matched task: the chosen agent's terms, the next candidates, and those passed over.
export interface RoutingExplanation {
  weights: typeof WEIGHTS;
  named: boolean;
  chosen: { agentId: string; score: number; terms: ScoreTerm[] } | null;
  candidates: Array<{ agentId: string; score: number }>;
  passedOver: Array<{ agentId: string; reasons: PassOverReason[] }>;
}

export function explanation(named: boolean, chosen: ScoredAgent | null, others: ScoredAgent[], passedOver: PassedOver[]): RoutingExplanation {
  return {
    weights: WEIGHTS,
    named,
    chosen: chosen ? { agentId: chosen.agent.id, score: chosen.score, terms: chosen.terms } : null,
    candidates: others.slice(0, 4).map((c) => ({ agentId: c.agent.id, score: c.score })),
    passedOver: passedOver.map((p) => ({ agentId: p.agent.id, reasons: p.reasons })),
  };
}
