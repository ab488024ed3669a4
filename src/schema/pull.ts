// Pull intake in the schema: a pulling agent's owner claims its tasks (a long poll as a mutation, a held
// stream as a subscription), extends a lease or gives a task back. The credential needs `tasks:work`.
import { builder } from './builder.js';
import type { ClaimedTask } from '../services/pull/index.js';
import { claimMax, leaseSeconds, waitSeconds } from '../services/pull/limits.js';

const LeaseRef = builder.objectRef<{ expiresAt: string | Date }>('TaskLease').implement({
  description: 'A claim on a task: until it ends the task is offered to no one else',
  fields: (t) => ({
    expiresAt: t.string({ resolve: (lease) => (typeof lease.expiresAt === 'string' ? lease.expiresAt : lease.expiresAt.toISOString()) }),
  }),
});

// The webhook's delivery payload, field for field (docs/webhooks.md), plus the lease.
const ClaimedTaskRef = builder.objectRef<ClaimedTask>('ClaimedTask').implement({
  description: "A task (or the requester's answer to an input request) claimed by a pulling agent: the webhook delivery's payload and the lease",
  fields: (t) => ({
    type: t.string({ description: 'task.assigned (the task) or task.input (an answer to an input request)', resolve: (c) => ('type' in c ? c.type : 'task.assigned') }),
    taskId: t.exposeID('taskId'),
    taskToken: t.exposeString('taskToken'),
    title: t.string({ nullable: true, resolve: (c) => ('title' in c ? c.title : null) }),
    description: t.string({ nullable: true, resolve: (c) => ('description' in c ? c.description : null) }),
    input: t.field({ type: 'JSON', resolve: (c) => c.input }),
    callbackUrl: t.exposeString('callbackUrl'),
    capabilities: t.stringList({ nullable: true, resolve: (c) => ('capabilities' in c ? c.capabilities : null) }),
    priority: t.string({ nullable: true, resolve: (c) => ('priority' in c ? c.priority : null) }),
    expiresAt: t.exposeString('expiresAt'),
    inputHash: t.exposeString('inputHash', { nullable: true }),
    round: t.int({ nullable: true, description: 'For task.input: which input request this answers', resolve: (c) => ('round' in c ? c.round : null) }),
    files: t.field({ type: 'JSON', nullable: true, resolve: (c) => ('files' in c ? (c.files ?? null) : null) }),
    lease: t.field({ type: LeaseRef, resolve: (c) => c.lease }),
  }),
});

const LeaseResultRef = builder.objectRef<{ taskId: string; lease: { expiresAt: Date } }>('TaskLeaseResult').implement({
  fields: (t) => ({ taskId: t.exposeID('taskId'), lease: t.field({ type: LeaseRef, resolve: (r) => r.lease }) }),
});

const ReleaseResultRef = builder.objectRef<{ taskId: string; released: boolean }>('TaskReleaseResult').implement({
  fields: (t) => ({ taskId: t.exposeID('taskId'), released: t.exposeBoolean('released') }),
});

builder.mutationFields((t) => ({
  claimTasks: t.field({
    type: [ClaimedTaskRef],
    description: "Claims tasks for one of the caller's pulling agents: at once when there are some, else waits up to waitSeconds for one",
    authScopes: { scope: 'tasks:work' },
    args: {
      agentId: t.arg.id({ required: true }),
      max: t.arg.int({ description: 'At most this many (1-50, default 1)' }).validate(claimMax.nullish()),
      waitSeconds: t.arg.int({ description: 'How long to wait for work (0-60, default 20)' }).validate(waitSeconds.nullish()),
      leaseSeconds: t.arg.int({ description: 'How long each claim holds its task without an answer (10-3600, default 300)' }).validate(leaseSeconds.nullish()),
    },
    resolve: (_root, args, ctx) => ctx.services.deliveries.pull.claim(ctx.viewer!, String(args.agentId), args),
  }),
  extendTaskLease: t.field({
    type: LeaseResultRef,
    description: 'Moves the end of the lease on a claimed task to leaseSeconds from now',
    authScopes: { scope: 'tasks:work' },
    args: {
      agentId: t.arg.id({ required: true }),
      taskId: t.arg.id({ required: true }),
      leaseSeconds: t.arg.int({ description: '10-3600, default 300' }).validate(leaseSeconds.nullish()),
    },
    resolve: (_root, args, ctx) => ctx.services.deliveries.pull.extendLease(ctx.viewer!, String(args.agentId), String(args.taskId), args.leaseSeconds),
  }),
  releaseTask: t.field({
    type: ReleaseResultRef,
    description: 'Gives a claimed task back: it is offered again at once',
    authScopes: { scope: 'tasks:work' },
    args: { agentId: t.arg.id({ required: true }), taskId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.deliveries.pull.release(ctx.viewer!, String(args.agentId), String(args.taskId)),
  }),
}));

builder.subscriptionFields((t) => ({
  taskClaims: t.field({
    type: ClaimedTaskRef,
    description: "Claimed tasks of one of the caller's pulling agents, one per event, for as long as the subscription lasts",
    authScopes: { scope: 'tasks:work' },
    args: {
      agentId: t.arg.id({ required: true }),
      max: t.arg.int({ description: 'Tasks claimed at once (1-50, default 1)' }).validate(claimMax.nullish()),
      leaseSeconds: t.arg.int({ description: '10-3600, default 300' }).validate(leaseSeconds.nullish()),
    },
    subscribe: (_root, args, ctx) => ctx.services.deliveries.pull.stream(ctx.viewer!, String(args.agentId), args),
    resolve: (claimed) => claimed,
  }),
}));
