// Reputation in the schema: an agent's track record, and ratings of completed tasks.
import type { Agent } from '../generated/prisma/client.js';
import type { TaskRating } from '../services/reputation.js';
import { RECENT_TASKS } from '../reputation/track-record.js';
import { COUNTED_WORDS } from '../stores/counted-tasks.js';
import { builder } from './builder.js';
import { AgentRef, PublicAgentRef } from './agents.js';

type AgentStatsSource = Pick<
  Agent,
  'recentFinished' | 'recentSuccessRate' | 'p50CompletionMs' | 'p95CompletionMs' | 'successLowerBound' | 'ratingBayes' | 'ratingLowerBound' | 'ratingCount'
>;

const AgentStatsRef = builder.objectRef<AgentStatsSource>('AgentStats').implement({
  description: `Track record over the agent's latest ${RECENT_TASKS} finished tasks that count: ${COUNTED_WORDS.task}`,
  fields: (t) => ({
    recentTasks: t.exposeInt('recentFinished', { description: 'How many finished tasks the figures cover' }),
    successRate: t.exposeFloat('recentSuccessRate', { nullable: true, description: 'Completed share, 0 to 1; null without finished tasks' }),
    p50CompletionMs: t.exposeInt('p50CompletionMs', { nullable: true, description: 'Median time from delivery to completion, in ms' }),
    p95CompletionMs: t.exposeInt('p95CompletionMs', { nullable: true, description: '95th percentile time from delivery to completion, in ms' }),
    successLowerBound: t.exposeFloat('successLowerBound', {
      nullable: true,
      description: 'Lower bound of the 95 % Wilson interval of the success rate over recentTasks; what the trust tier uses',
    }),
    ratingCount: t.exposeInt('ratingCount', { description: "Ratings that count (not the owner's own)" }),
    ratingAverage: t.exposeFloat('ratingBayes', {
      nullable: true,
      description: 'Bayesian average of the ratings that count, pulled toward the marketplace mean (RATING_MIN_COUNT phantom ratings)',
    }),
    ratingLowerBound: t.exposeFloat('ratingLowerBound', { nullable: true, description: 'Lower bound of ratingAverage; the rating sort and trust tier use it' }),
  }),
});

// The track record's columns, each stored by the same recount as taskCount, completedCount and failedCount.
const STATS_SELECT = {
  recentFinished: true,
  recentSuccessRate: true,
  p50CompletionMs: true,
  p95CompletionMs: true,
  successLowerBound: true,
  ratingBayes: true,
  ratingLowerBound: true,
  ratingCount: true,
} as const satisfies Record<keyof AgentStatsSource, true>;

const STATS_COLUMNS = Object.keys(STATS_SELECT) as (keyof AgentStatsSource)[];

// Typed as the whole row, a parent could still come from a read of fewer columns.
const carriesStats = (agent: Partial<AgentStatsSource>): boolean => STATS_COLUMNS.every((column) => agent[column] !== undefined);

for (const ref of [AgentRef, PublicAgentRef]) {
  builder.prismaObjectFields(ref, (t) => ({
    // From the agent's row the answer already holds, read with its counts: a field `select` would read
    // the row again, and a recount landing between the two reads paired the counts from before it with
    // a track record from after it (the agent page showed "All time: 0 finished" beside "last 1
    // finished"). A parent read without these columns is completed by one read.
    stats: t.field({
      type: AgentStatsRef,
      resolve: (agent, _args, ctx) =>
        carriesStats(agent) ? agent : ctx.prisma.agent.findUniqueOrThrow({ where: { id: agent.id }, select: STATS_SELECT }),
    }),
  }));
}

const TaskRatingRef = builder.objectRef<TaskRating>('TaskRating').implement({
  fields: (t) => ({
    taskId: t.exposeID('taskId'),
    agentId: t.exposeID('agentId', { nullable: true }),
    rating: t.exposeInt('rating'),
    ratedAt: t.expose('ratedAt', { type: 'DateTime' }),
    avgRating: t.exposeFloat('avgRating', { nullable: true, description: "The agent's average rating after this one" }),
  }),
});

builder.mutationFields((t) => ({
  rateTask: t.field({
    type: TaskRatingRef,
    description: 'The requester rates a completed task from 1 to 5, once',
    authScopes: { scope: 'tasks:write' },
    args: { taskId: t.arg.id({ required: true }), rating: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.reputation.rateTask(ctx.viewer!, String(args.taskId), args.rating),
  }),
}));
