// Which of an agent's tasks its record is made of, stated once for every figure of it: the lifetime counts
// (taskCount, completedCount, failedCount), the recent track record (success rate, p50/p95), the daily
// figures and the trust score built from them. A task counts when
//
//   - it is finished with an outcome (the lifecycle's RECORD_OUTCOME: a success or a failure; a
//     cancelled task says nothing),
//   - the agent had it: it was matched to the agent (a task that failed or expired before it was handed
//     over, on a declined card say, says nothing about the agent), and
//   - the requester is not the agent's owner (self-dealing cannot build a record).
//
// The descriptions of the GraphQL fields (schema/display.ts, schema/agents.ts) are these words too.
import { sql, type RawBuilder } from 'kysely';
import { FAILED, SUCCEEDED, type TaskStatus } from '../lifecycle/task-lifecycle.js';

// The states as SQL literals: the statement's text stays the same for every agent (prepared once).
const statusIn = (states: readonly TaskStatus[]) => sql<boolean>`t.status IN (${sql.join(states.map((s) => sql.lit(s)))})`;

// On a task row aliased `t`: it is a success, or a failure, of its agent's record.
export const SUCCESS_SQL: RawBuilder<boolean> = statusIn(SUCCEEDED);
export const FAILURE_SQL: RawBuilder<boolean> = statusIn(FAILED);

// On a task row aliased `t`: it is one of `agentId`'s tasks that its record counts.
export function countedTaskSql(agentId: string): RawBuilder<boolean> {
  return sql<boolean>`t.agent_id = ${agentId}
    AND t.matched_at IS NOT NULL
    AND t.requester_id <> (SELECT owner_id FROM agents WHERE id = ${agentId})
    AND t.status IN (${sql.join([...SUCCEEDED, ...FAILED].map((s) => sql.lit(s)))})`;
}

// The same rule in words, for the API's field descriptions.
export const COUNTED_WORDS = {
  task: 'a task the agent was given that finished completed, failed, expired or refunded, not asked for by its owner; a cancelled task counts for neither side',
  taskCount: "The agent's finished tasks that count: completed + failed, all time",
  completedCount: 'Tasks the agent completed, all time (its successes)',
  failedCount: 'Tasks the agent had that failed, expired or were refunded after a dispute, all time',
  ratingCount: 'How many ratings avgRating averages: one per rated task of a requester other than its owner',
  daily: 'Finished tasks that count per day (UTC) over the last `days` days, today last, days without any as zeros; the same tasks as completedCount and failedCount',
} as const;
