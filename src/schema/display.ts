// Fields that let a client show names rather than ids: the agent of a task, the task of a delivery,
// an agent's icon and its owner's name, and the counts behind its trust tier. Each reads what the
// viewer may already see (a task's agent is public; a delivery is listed only to the agent's owner).
import { z } from 'zod';
import { builder } from './builder.js';
import type { DayOutcomes } from '../reputation/daily.js';
import { COUNTED_WORDS } from '../stores/counted-tasks.js';
import { AgentRef, PublicAgentRef } from './agents.js';
import { iconOf } from './agent-cards.js';
import { TaskRef } from './tasks.js';
import { readsTasks } from './kind-scopes.js';
import { DeliveryRef } from './deliveries.js';


builder.prismaObjectFields(PublicAgentRef, (t) => ({
  iconUrl: t.string({ nullable: true, description: "The agent's icon (https), from its A2A card", select: { a2aCard: true }, resolve: iconOf }),
  ownerName: t.string({
    nullable: true,
    description: "The owner's display name; null when the owner has not set one",
    select: { owner: { select: { name: true } } },
    resolve: (agent) => agent.owner.name ?? null,
  }),
}));

const DayOutcomesRef = builder.objectRef<DayOutcomes>('DayOutcomes').implement({
  description: "One day (UTC) of an agent's finished tasks",
  fields: (t) => ({
    day: t.exposeString('day', { description: 'YYYY-MM-DD' }),
    completed: t.exposeInt('completed', { description: 'Completed that day: counted in completedCount' }),
    failed: t.exposeInt('failed', { description: 'Failed, expired or refunded that day: counted in failedCount' }),
  }),
});
const dayCount = z.number().int().min(1, 'must be between 1 and 90').max(90, 'must be between 1 and 90');

for (const ref of [AgentRef, PublicAgentRef]) {
  builder.prismaObjectFields(ref, (t) => ({
    daily: t.field({
      type: [DayOutcomesRef],
      description: COUNTED_WORDS.daily,
      args: { days: t.arg.int({ defaultValue: 14 }).validate(dayCount) },
      resolve: (agent, args, ctx) => ctx.services.reputation.daily(agent.id, args.days ?? 14),
    }),
    completedCount: t.exposeInt('completedCount', { description: COUNTED_WORDS.completedCount }),
    failedCount: t.exposeInt('failedCount', { description: COUNTED_WORDS.failedCount }),
    ratingCount: t.exposeInt('ratingCount', { description: COUNTED_WORDS.ratingCount }),
  }));
}

builder.prismaObjectFields(TaskRef, (t) => ({
  agent: t.relation('agent', { type: PublicAgentRef, nullable: true, description: 'The agent the task went to, as anyone may see it' }),
  // How the task reached its agent is the owner's business (endpoint answers and errors): the
  // requester gets null.
  deliveries: t.field({
    type: [DeliveryRef],
    nullable: true,
    description: "The task's deliveries to its agent with every attempt, oldest first: for the agent's owner; null for anyone else",
    select: {
      agent: { select: { ownerId: true } },
      deliveries: { orderBy: { createdAt: 'asc' }, include: { attempts: { orderBy: { number: 'asc' } } } },
    },
    resolve: (task, _args, ctx) => (ctx.viewer && task.agent?.ownerId === ctx.viewer.id ? task.deliveries : null),
  }),
}));

builder.prismaObjectFields('Delivery', (t) => ({
  task: t.relation('task', { type: TaskRef, authScopes: readsTasks }),
}));
