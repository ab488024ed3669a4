import { builder } from './builder.js';
import { readableWith, readsTasks } from './kind-scopes.js';
import type { Prisma } from '../generated/prisma/client.js';
import { TASK_STATUSES } from '../lifecycle/task-lifecycle.js';
import {
  contestStatement,
  createTask,
  idempotencyKey,
  inputRequest,
  jsonObject,
  rejectReason,
  routeQuery,
  taskError,
  taskListLimit,
} from '../services/task-input.js';
import { PublicAgentRef } from './agents.js';
import { TrustTierEnum } from './enums.js';
import { PaymentRef } from './task-payment.js';
import { taskRoutingState, type TaskRoutingState } from '../services/task-routing-state.js';
import type { TaskWithPayment } from '../services/tasks/index.js';

// The lifecycle's states (lifecycle/task-lifecycle.ts).
export const TaskStatusEnum = builder.enumType('TaskStatus', { values: TASK_STATUSES });

export const TaskHistoryEntryRef = builder.prismaObject('TaskHistoryEntry', {
  authScopes: readableWith('tasks:read', 'tasks:write'),
  description: 'One step of a task: who did what, when and why',
  fields: (t) => ({
    at: t.expose('at', { type: 'DateTime' }),
    actor: t.exposeString('actor', { description: 'requester, agent_owner, agent, operator or system' }),
    actorId: t.exposeString('actorId', { nullable: true }),
    action: t.exposeString('action', { description: 'The move: match, request_input, provide_input, deliver_result, approve, reject, refund, contest, …' }),
    fromStatus: t.expose('fromStatus', { type: TaskStatusEnum, nullable: true }),
    toStatus: t.expose('toStatus', { type: TaskStatusEnum }),
    note: t.exposeString('note', { nullable: true }),
    data: t.expose('data', { type: 'JSON', nullable: true }),
  }),
});
export const TaskPriorityEnum = builder.enumType('TaskPriority', { values: ['low', 'normal', 'high', 'urgent'] as const });
export const TaskRoleEnum = builder.enumType('TaskRole', {
  description: 'requester: tasks the caller created; agent: tasks assigned to agents the caller owns',
  values: ['requester', 'agent'] as const,
});

const TaskRoutingStatusEnum = builder.enumType('TaskRoutingStatus', {
  description: 'routed: an agent has the task; waiting: no agent can take it now, routing tries again until it expires; not_routed: it ended without an agent',
  values: ['routed', 'waiting', 'not_routed'] as const,
});
const TaskRoutingRef = builder.objectRef<TaskRoutingState>('TaskRouting').implement({
  description: 'Where the task stands with routing, and why it waits when no agent can take it',
  fields: (t) => ({
    status: t.field({ type: TaskRoutingStatusEnum, resolve: (r) => r.status }),
    agentId: t.exposeID('agentId', { nullable: true }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why no agent has the task (e.g. no active agent offers the capability "x"); null once routed' }),
  }),
});

// No scopes of its own: every field that answers a task states them (kind-scopes.ts readsTasks).
export const TaskRef = builder.prismaObject('Task', {
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.expose('status', { type: TaskStatusEnum }),
    title: t.exposeString('title'),
    description: t.exposeString('description'),
    input: t.expose('input', { type: 'JSON', nullable: true }),
    capabilities: t.exposeStringList('capabilities'),
    protocols: t.exposeStringList('protocols'),
    priority: t.expose('priority', { type: TaskPriorityEnum }),
    maxPriceCents: t.exposeInt('maxPriceCents', { nullable: true }),
    agentId: t.exposeID('agentId', { nullable: true }),
    requesterId: t.exposeID('requesterId'),
    result: t.expose('result', { type: 'JSON', nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    rating: t.exposeInt('rating', { nullable: true }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    matchedAt: t.expose('matchedAt', { type: 'DateTime', nullable: true }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
    payment: t.relation('payment', { nullable: true, type: PaymentRef }),
    reviewWindowSeconds: t.exposeInt('reviewWindowSeconds', { description: 'Seconds the requester has to review a result; 0 = no review' }),
    requirements: t.expose('requirements', { type: 'JSON', nullable: true }),
    routing: t.field({ type: TaskRoutingRef, resolve: (task) => taskRoutingState(task) }),
    routingExplanation: t.expose("routing", { type: "JSON", nullable: true, description: "Why routing chose the agent: the score terms and the agents passed over" }),
    inputHash: t.exposeString('inputHash', { nullable: true, description: 'SHA-256 (hex) of the canonical JSON of the input, taken at creation' }),
    resultHash: t.exposeString('resultHash', { nullable: true, description: 'SHA-256 (hex) of the canonical JSON of the result, taken when it was given' }),
    receipt: t.string({
      nullable: true,
      description:
        "The service's signed receipt of the finished task (compact JWS over canonical JSON, keys at /.well-known/jwks.json): ids, hashes, final status, settlement, times; never the input or result. Null until the task finishes",
      select: { id: true, agentId: true, requesterId: true, status: true, inputHash: true, resultHash: true, createdAt: true, finishedAt: true, payment: { select: { method: true, status: true, amountCents: true, settledAt: true } } },
      resolve: (task, _args, ctx) => ctx.services.receipts.issue(task, task.payment ?? null),
    }),
    inputRequest: t.expose('inputRequest', { type: 'JSON', nullable: true, description: "The agent's open question while input_required: {message, inputSchema?}" }),
    inputRounds: t.exposeInt('inputRounds'),
    reviewEndsAt: t.expose('reviewEndsAt', { type: 'DateTime', nullable: true, description: 'delivered: when the result is approved automatically' }),
    approvedBy: t.exposeString('approvedBy', { nullable: true, description: 'requester, auto or operator' }),
    disputeReason: t.exposeString('disputeReason', { nullable: true }),
    disputeStatement: t.exposeString('disputeStatement', { nullable: true }),
    disputeContestedAt: t.expose('disputeContestedAt', { type: 'DateTime', nullable: true }),
    disputeAnswerBy: t.expose('disputeAnswerBy', { type: 'DateTime', nullable: true, description: 'An uncontested dispute refunds at this time' }),
    history: t.relation('history', { query: { orderBy: [{ at: 'asc' }, { id: 'asc' }] } }),
  }),
});

const requirementFields = (t: PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<never>, 'InputObject'>) => ({
  minTrustTier: t.field({ type: TrustTierEnum as never, description: 'Lowest trust tier accepted (unrated < bronze < silver < gold < diamond)' }),
  minSuccessRate: t.float({ description: 'Recent success rate, 0 to 1' }),
  verifiedOnly: t.boolean(),
  maxPriceCents: t.int(),
  deadline: t.field({ type: 'DateTime' as never, description: 'The result is needed by then' }),
});
const TaskRequirementsInput = builder.inputType('TaskRequirementsInput', { fields: (t) => requirementFields(t as never) });

const CreateTaskInput = builder.inputType('CreateTaskInput', {
  fields: (t) => ({
    title: t.string({ required: true }),
    description: t.string({ required: true }),
    input: t.field({ type: 'JSON', description: 'Structured input for the agent (a JSON object)' }),
    agentId: t.id({ description: 'Route straight to this agent' }),
    capabilities: t.stringList(),
    protocols: t.stringList(),
    priority: t.field({ type: TaskPriorityEnum }),
    maxPriceCents: t.int(),
    expiresInMinutes: t.float({ description: 'Default 60, at most 10080' }),
    reviewWindowSeconds: t.int({ description: 'Hold the result for review this long before paying; 0 (default) pays on completion' }),
    requirements: t.field({ type: TaskRequirementsInput }),
  }),
}).validate(createTask);

// A task selection that needs no more than the row and its payment's (REST's create asks for this).
function columnsAndPayment(query: { include?: Prisma.TaskInclude; select?: Prisma.TaskSelect }): boolean {
  return query.select === undefined && Object.entries(query.include ?? {}).every(([relation, selected]) => relation === 'payment' && selected === true);
}

const CreateTaskResult = builder.objectRef<{ taskId: string; task: TaskWithPayment | null; clientSecret: string | null; autoCharged: boolean }>('CreateTaskResult').implement({
  fields: (t) => ({
    task: t.prismaField({
      type: 'Task',
      authScopes: readsTasks,
      // The task as the create wrote it answers a selection of its columns and its payment's; other
      // relations (its history) are read.
      resolve: (query, result, _args, ctx) =>
        result.task && columnsAndPayment(query) ? result.task : ctx.prisma.task.findUniqueOrThrow({ ...query, where: { id: result.taskId } }),
    }),
    clientSecret: t.exposeString('clientSecret', {
      nullable: true,
      description: 'Present when the card hold must be confirmed by the requester with the payment processor',
    }),
    autoCharged: t.exposeBoolean('autoCharged', { description: 'A saved card was authorized at creation' }),
  }),
});

const TaskPage = builder.objectRef<{ tasks: TaskWithPayment[]; nextCursor: string | null }>('TaskPage').implement({
  fields: (t) => ({
    data: t.prismaField({
      type: ['Task'],
      authScopes: readsTasks,
      // The page was read with each task's payment, which answers a selection of their columns and
      // payments (REST's list asks for this) without a read per task; other relations are read.
      resolve: (query, page, _args, ctx) =>
        columnsAndPayment(query) ? page.tasks : ctx.prisma.task.findMany({ ...query, where: { id: { in: page.tasks.map((task) => task.id) } }, orderBy: { id: 'desc' } }),
    }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as cursor for the next page; null on the last' }),
  }),
});

const ScoreTermRef = builder.objectRef<{ term: string; value: number; weight: number }>('ScoreTerm').implement({
  description: 'One term of the routing score: its value (0 to 1) and its weight; the score is the sum of value × weight',
  fields: (t) => ({
    term: t.exposeString('term', { description: 'capability, trust, rating, success, health, load or price' }),
    value: t.exposeFloat('value'),
    weight: t.exposeFloat('weight'),
  }),
});

const RouteCandidate = builder.objectRef<{ agent: { id: string }; score: number; terms: { term: string; value: number; weight: number }[] }>('RouteCandidate').implement({
  fields: (t) => ({
    agent: t.field({ type: PublicAgentRef, resolve: (c) => c.agent as never }),
    score: t.exposeFloat('score'),
    terms: t.field({ type: [ScoreTermRef], resolve: (c) => c.terms }),
  }),
});

const PassedOverRef = builder.objectRef<{ agent: { id: string }; reasons: string[] }>('PassedOverAgent').implement({
  description: 'An agent that offers what the task needs but was not a candidate, and why',
  fields: (t) => ({
    agent: t.field({ type: PublicAgentRef, resolve: (p) => p.agent as never }),
    reasons: t.exposeStringList('reasons', {
      description: 'inactive, unhealthy, endpoint_disabled, over_price, below_min_trust_tier, below_min_success_rate, not_verified, would_miss_deadline, input_refused',
    }),
  }),
});

const RouteExplanationRef = builder
  .objectRef<{ candidates: { agent: { id: string }; score: number; terms: { term: string; value: number; weight: number }[] }[]; passedOver: { agent: { id: string }; reasons: string[] }[] }>('RouteExplanation')
  .implement({
    fields: (t) => ({
      candidates: t.field({ type: [RouteCandidate], description: 'Eligible agents, best first: the first is the one the task would go to', resolve: (e) => e.candidates }),
      passedOver: t.field({ type: [PassedOverRef], resolve: (e) => e.passedOver }),
    }),
  });

const RouteInput = builder.inputType('RouteInput', {
  fields: (t) => ({
    requirements: t.field({ type: TaskRequirementsInput }),
    input: t.field({ type: 'JSON', description: "The task's input, checked against each agent's inputSchema" }),
    capabilities: t.stringList(),
    protocols: t.stringList(),
    maxPriceCents: t.int(),
    limit: t.int({ description: 'Default 5, at most 50' }),
  }),
}).validate(routeQuery);

builder.queryFields((t) => ({
  task: t.prismaField({
    type: 'Task',
    description: 'A task, for its requester and for the owner of its agent',
    authScopes: { scope: 'tasks:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      // The party check needs the agent's ownerId; a query that also asks for the agent keeps its fields.
      ctx.services.tasks.mustBeParty(
        ctx.viewer!,
        await ctx.prisma.task.findUnique({ where: { id: String(args.id) }, include: { ...query.include, agent: withOwnerId(query.include?.agent) } }),
      ),
  }),
  tasks: t.field({
    type: TaskPage,
    authScopes: { scope: 'tasks:read' },
    args: {
      role: t.arg({ type: TaskRoleEnum, defaultValue: 'requester' }),
      status: t.arg({ type: TaskStatusEnum }),
      limit: t.arg.int({ defaultValue: 20 }).validate(taskListLimit),
      cursor: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.tasks.list(ctx.viewer!, { role: args.role ?? 'requester', status: args.status ?? null, limit: args.limit ?? 20, cursor: args.cursor ?? null }),
  }),
}));

const InputRequestInput = builder.inputType('InputRequestInput', {
  description: 'What the agent needs from the requester to go on',
  fields: (t) => ({
    message: t.string({ required: true }),
    inputSchema: t.field({ type: 'JSON', description: 'A JSON Schema the answer must meet (bounded like an agent inputSchema)' }),
  }),
}).validate(inputRequest);

builder.mutationFields((t) => {
  // A move that takes only the task's id and answers the task as it is afterwards.
  const moveById = (move: 'accept' | 'start' | 'cancel' | 'approve' | 'refund') =>
    t.prismaField({
      type: 'Task',
      authScopes: { scope: 'tasks:write' },
      args: { id: t.arg.id({ required: true }) },
      resolve: (_q, _root, args, ctx) => ctx.services.tasks[move](ctx.viewer!, String(args.id)),
    });
  return {
    createTask: t.field({
      type: CreateTaskResult,
      authScopes: { scope: 'tasks:write' },
      args: {
        input: t.arg({ type: CreateTaskInput, required: true }),
        idempotencyKey: t.arg
          .string({ description: 'A repeat with the same key returns the task the first request made, with the same card hold' })
          .validate(idempotencyKey),
      },
      resolve: async (_root, args, ctx) => {
        const { taskId, task, authorization } = await ctx.services.tasks.create(ctx.viewer!, args.input, args.idempotencyKey ?? null);
        return { taskId, task, clientSecret: authorization?.clientSecret ?? null, autoCharged: authorization?.autoCharged ?? false };
      },
    }),
    acceptTask: moveById('accept'),
    startTask: moveById('start'),
    completeTask: t.prismaField({
      type: 'Task',
      authScopes: { scope: 'tasks:write' },
      args: { id: t.arg.id({ required: true }), result: t.arg({ type: 'JSON', required: true }).validate(jsonObject) },
      resolve: (_q, _root, args, ctx) => ctx.services.tasks.complete(ctx.viewer!, String(args.id), args.result),
    }),
    failTask: t.prismaField({
      type: 'Task',
      authScopes: { scope: 'tasks:write' },
      args: { id: t.arg.id({ required: true }), error: t.arg.string({ required: true }).validate(taskError) },
      resolve: (_q, _root, args, ctx) => ctx.services.tasks.fail(ctx.viewer!, String(args.id), args.error),
    }),
    cancelTask: moveById('cancel'),
    requestTaskInput: t.prismaField({
      type: 'Task',
      description: "Ask the requester for more input (the assigned agent's owner); the task waits in input_required",
      authScopes: { scope: 'tasks:write' },
      args: { id: t.arg.id({ required: true }), input: t.arg({ type: InputRequestInput, required: true }) },
      resolve: (_q, _root, args, ctx) => ctx.services.tasks.requestInput(ctx.viewer!, String(args.id), args.input),
    }),
    provideTaskInput: t.prismaField({
      type: 'Task',
      description: "Answer the agent's input request (the requester); the task goes back to in_progress",
      authScopes: { scope: 'tasks:write' },
      args: { id: t.arg.id({ required: true }), input: t.arg({ type: 'JSON', required: true }).validate(jsonObject) },
      resolve: (_q, _root, args, ctx) => ctx.services.tasks.provideInput(ctx.viewer!, String(args.id), args.input),
    }),
    approveTask: moveById('approve'),
    rejectTask: t.prismaField({
      type: 'Task',
      description: 'Reject a delivered result (the requester); the task becomes disputed',
      authScopes: { scope: 'tasks:write' },
      args: { id: t.arg.id({ required: true }), reason: t.arg.string({ required: true }).validate(rejectReason) },
      resolve: (_q, _root, args, ctx) => ctx.services.tasks.reject(ctx.viewer!, String(args.id), args.reason),
    }),
    refundTask: moveById('refund'),
    contestTask: t.prismaField({
      type: 'Task',
      description: "Stand by the result of a disputed task (the assigned agent's owner); an operator settles it",
      authScopes: { scope: 'tasks:write' },
      args: { id: t.arg.id({ required: true }), statement: t.arg.string({ required: true }).validate(contestStatement) },
      resolve: (_q, _root, args, ctx) => ctx.services.tasks.contest(ctx.viewer!, String(args.id), args.statement),
    }),
    taskCallback: t.field({
      type: TaskStatusEnum,
      description: "The agent's answer, authenticated by the task token from the delivery (no Bearer needed)",
      args: {
        id: t.arg.id({ required: true }),
        taskToken: t.arg.string({ required: true }),
        result: t.arg({ type: 'JSON' }).validate(jsonObject.nullish()),
        error: t.arg.string().validate(taskError.nullish()),
        inputRequired: t.arg({ type: InputRequestInput, description: 'Ask the requester for more input instead of answering' }),
      },
      resolve: async (_root, args, ctx) => {
        const task = await ctx.services.tasks.callback(String(args.id), {
          taskToken: args.taskToken,
          result: args.result,
          error: args.error,
          inputRequired: args.inputRequired ?? null,
        });
        return task.status;
      },
    }),
    routeTask: t.field({
      type: [RouteCandidate],
      description: 'The agents a task with these requirements would go to, best first; creates nothing',
      authScopes: { scope: 'tasks:write' },
      args: { input: t.arg({ type: RouteInput, required: true }) },
      resolve: (_root, args, ctx) => ctx.services.tasks.route(args.input),
    }),
    explainRoute: t.field({
      type: RouteExplanationRef,
      description: 'The dry run with reasons: candidates with each term of their score, and the agents passed over with why; creates nothing',
      authScopes: { scope: 'tasks:read' },
      args: { input: t.arg({ type: RouteInput, required: true }) },
      resolve: (_root, args, ctx) => ctx.services.tasks.explainRoute(args.input),
    }),
  };
});

// The agent as a task query includes it, with its ownerId besides (nothing else when not asked for).
function withOwnerId(agent: Prisma.TaskInclude['agent']): Prisma.TaskInclude['agent'] {
  if (!agent) return { select: { ownerId: true } };
  if (agent === true) return true;
  return agent.select ? { ...agent, select: { ...agent.select, ownerId: true } } : agent;
}
