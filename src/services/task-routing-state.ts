// Where a task stands with routing, in words: routed to an agent, waiting for one (and why nothing can
// take it now), or closed without ever having one. Read from the task's row alone: the explanation
// stored when routing found no agent (routing.ts RoutingExplanation with `chosen: null`) says who was
// passed over and why.
import type { Prisma, Task } from '../generated/prisma/client.js';
import type { PassOverReason, RoutingExplanation } from './routing.js';
import { TERMINAL } from './task-states.js';

export type RoutingStatus = 'routed' | 'waiting' | 'not_routed';

export interface TaskRoutingState {
  status: RoutingStatus;
  agentId: string | null;
  // Why no agent has it (waiting, not_routed); null once routed.
  reason: string | null;
}

const REASON_WORDS: Record<PassOverReason, string> = {
  inactive: 'inactive',
  unhealthy: 'unhealthy',
  endpoint_disabled: 'endpoint disabled after failing',
  over_price: 'above the price cap',
  below_min_trust_tier: 'below the minimum trust tier',
  below_min_success_rate: 'below the minimum success rate',
  not_verified: 'not verified',
  would_miss_deadline: 'would miss the deadline',
  input_refused: 'its inputSchema refuses the input',
};

const quoted = (values: string[]) => values.map((v) => `"${v}"`).join(', ');
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

function passedOverOf(json: Prisma.JsonValue | null): RoutingExplanation['passedOver'] {
  const passed = (json as Partial<RoutingExplanation> | null)?.passedOver;
  return Array.isArray(passed) ? passed : [];
}

/** Why routing has no agent for the task, as a sentence. */
export function waitingReason(task: Pick<Task, 'capabilities' | 'protocols' | 'requestedAgentId' | 'routing'>): string {
  if (task.requestedAgentId) return 'the agent it names cannot take it now (inactive, unhealthy or no longer meeting its requirements)';
  const passedOver = passedOverOf(task.routing);
  if (passedOver.length > 0) {
    const counts = new Map<string, number>();
    for (const p of passedOver) for (const r of p.reasons) counts.set(REASON_WORDS[r] ?? r, (counts.get(REASON_WORDS[r] ?? r) ?? 0) + 1);
    const why = [...counts].map(([words, n]) => `${n} ${words}`).join(', ');
    const n = passedOver.length;
    return `${n}${n >= 10 ? ' or more' : ''} ${plural(n, 'agent offers', 'agents offer')} what it needs but none can take it now (${why})`;
  }
  const { capabilities, protocols } = task;
  const offers = capabilities.length ? `the ${plural(capabilities.length, 'capability', 'capabilities')} ${quoted(capabilities)}` : '';
  const speaks = protocols.length ? `the ${plural(protocols.length, 'protocol', 'protocols')} ${quoted(protocols)}` : '';
  if (offers && speaks) return `no active agent offers ${offers} over ${speaks}`;
  if (offers) return `no active agent offers ${offers}`;
  if (speaks) return `no active agent speaks ${speaks}`;
  return 'no active agent is registered yet';
}

export function taskRoutingState(task: Pick<Task, 'status' | 'agentId' | 'capabilities' | 'protocols' | 'requestedAgentId' | 'routing'>): TaskRoutingState {
  if (task.agentId) return { status: 'routed', agentId: task.agentId, reason: null };
  return { status: TERMINAL.includes(task.status) ? 'not_routed' : 'waiting', agentId: null, reason: waitingReason(task) };
}
