// Which agent a task goes to, and why: a named agent is checked against the task (its status, price,
// requirements and inputSchema); otherwise the best eligible agent whose inputSchema accepts the input.
// Either way the answer carries the explanation stored with the task (routing.ts RoutingExplanation).
import { fileRefsAsIds } from './task-files.js';
import type { Deps } from '../deps.js';
import type { Agent, Prisma } from '../generated/prisma/client.js';
import { agentById, agentsByIds } from '../stores/agent-store.js';
import { AppError, conflict, invalid } from '../errors.js';
import { InputSchemaError, inputSchemaProblem } from './input-schema.js';
import {
  explanation,
  passOverReasons,
  rankAgents,
  scoreOf,
  scoreTerms,
  priceCap,
  type PassOverReason,
  type RouteCriteria,
  type RoutingAgent,
  type RoutingExplanation,
  type ScoredAgent,
} from './routing.js';
import { taskRequirements, type RouteQuery, type TaskRequirements } from './task-input.js';

export type RoutableTask = RouteCriteria & { input: unknown };

export interface Routed {
  // As routing read it (a named agent: its whole row).
  agent: RoutingAgent;
  explanation: RoutingExplanation;
}

// Why the agent cannot take this input, or null when it can (no schema, no input, or input its schema
// accepts). A schema saved before the current limits accepts nothing until the owner replaces it.
export function inputProblem(agent: Pick<Agent, 'inputSchema'>, input: unknown): { message: string; unusableSchema: boolean } | null {
  if (!agent.inputSchema || !input) return null;
  try {
    // A file reference ({"$file": id}) stands where the schema has a file field (a string, format binary).
    const problem = inputSchemaProblem(agent.inputSchema, fileRefsAsIds(input));
    return problem === null ? null : { message: problem, unusableSchema: false };
  } catch (error) {
    if (error instanceof InputSchemaError) return { message: `the agent's inputSchema cannot be used (${error.message})`, unusableSchema: true };
    throw error;
  }
}

// A requirement a named agent misses, as the field of the request that states it.
const REQUIREMENT_FIELD: Partial<Record<PassOverReason, keyof TaskRequirements>> = {
  below_min_trust_tier: 'minTrustTier',
  below_min_success_rate: 'minSuccessRate',
  not_verified: 'verifiedOnly',
  would_miss_deadline: 'deadline',
  over_price: 'maxPriceCents',
};

/** The requirements stored on a task (JSON, deadline as an ISO string) as routing reads them. */
export function storedRequirements(json: Prisma.JsonValue | null): TaskRequirements | null {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return null;
  const deadline = (json as { deadline?: unknown }).deadline;
  const parsed = taskRequirements.safeParse({ ...json, deadline: typeof deadline === 'string' ? new Date(deadline) : null });
  return parsed.success ? parsed.data : null;
}

export function requirementsJson(r: TaskRequirements | null): Prisma.InputJsonValue | undefined {
  if (!r) return undefined;
  return { ...r, deadline: r.deadline?.toISOString() ?? null } as Prisma.InputJsonValue;
}

export function taskRouting(deps: Deps) {
  const { clock } = deps;

  // Ranked eligible agents split by whether their inputSchema takes the input.
  async function rankFor(task: RoutableTask, limit?: number) {
    const now = clock.now();
    const { ranked, passedOver: ineligible } = await rankAgents(deps.sql, task, now, limit);
    const fits: ScoredAgent[] = [];
    const refused: ScoredAgent[] = [];
    for (const scored of ranked) (inputProblem(scored.agent, task.input) === null ? fits : refused).push(scored);
    const passedOver = [...refused.map(({ agent }) => ({ agent, reasons: ['input_refused' as PassOverReason] })), ...ineligible].slice(0, 10);
    return { fits, passedOver };
  }

  // The best eligible agent, with the explanation also when there is none: who was passed over and why,
  // which the task keeps to say why it waits (task-routing-state.ts).
  async function choose(task: RoutableTask): Promise<{ routed: Routed | null; explanation: RoutingExplanation }> {
    const { fits, passedOver } = await rankFor(task);
    const [chosen, ...others] = fits;
    const why = explanation(false, chosen ?? null, others, passedOver);
    return { routed: chosen ? { agent: chosen.agent, explanation: why } : null, explanation: why };
  }

  return {
    // The named agent, refused when it cannot take the task: 404, 409 (inactive, over the task's
    // maxPriceCents, unusable schema), 422 naming the requirement it misses, 400 for refused input.
    async requested(agentId: string, task: RoutableTask): Promise<Routed> {
      const agent = await agentById(deps.sql, agentId);
      if (!agent) throw new AppError('NOT_FOUND', 'agent not found', { field: 'agentId' });
      if (agent.status !== 'active') throw conflict(`the agent is ${agent.status} and takes no tasks`, { agentStatus: agent.status });
      if (task.maxPriceCents !== null && agent.priceCents > task.maxPriceCents) {
        throw conflict(`the agent's price (${agent.priceCents} cents) is above maxPriceCents`, { priceCents: agent.priceCents });
      }
      const missed = passOverReasons(agent, task, clock.now())
        .map((reason) => REQUIREMENT_FIELD[reason])
        .find((field) => field !== undefined);
      if (missed) {
        throw new AppError('UNPROCESSABLE', `the agent does not meet requirements.${missed}`, { field: `requirements.${missed}`, details: { requirement: missed } });
      }
      const problem = inputProblem(agent, task.input);
      if (problem?.unusableSchema) throw conflict(problem.message);
      if (problem) throw invalid('input', problem.message);
      const terms = scoreTerms(agent, 0, priceCap(task), task.capabilities);
      return { agent, explanation: explanation(true, { agent, score: scoreOf(terms), terms }, [], []) };
    },

    // The best eligible agent whose inputSchema accepts the task's input: a routed task must not reach an
    // agent that declared it cannot take that input, any more than a named one may.
    best: async (task: RoutableTask): Promise<Routed | null> => (await choose(task)).routed,
    choose,

    // The dry run: candidates best first with their score terms, and the agents passed over with why.
    async explain(query: RouteQuery) {
      if (query.requirements?.deadline && query.requirements.deadline <= clock.now()) throw invalid('requirements.deadline', 'requirements.deadline must be in the future');
      const { fits, passedOver } = await rankFor(query);
      const candidates = fits.slice(0, query.limit);
      // The answer shows each agent (the GraphQL Agent): their whole rows, read for the few it shows (routing
      // read only its columns); an agent deleted since is left out.
      const rows = new Map((await agentsByIds(deps.sql, [...candidates, ...passedOver].map(({ agent }) => agent.id))).map((agent) => [agent.id, agent]));
      const whole = <T extends { agent: RoutingAgent }>(shown: T[]) =>
        shown.flatMap((item) => {
          const agent = rows.get(item.agent.id);
          return agent ? [{ ...item, agent }] : [];
        });
      return { candidates: whole(candidates), passedOver: whole(passedOver) };
    },
  };
}

export type TaskRouting = ReturnType<typeof taskRouting>;
