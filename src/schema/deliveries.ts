import { z } from 'zod';
import { builder } from './builder.js';
import { readableWith } from './kind-scopes.js';

export const DeliveryStatusEnum = builder.enumType('DeliveryStatus', { values: ['pending', 'succeeded', 'failed'] as const });

builder.prismaObject('DeliveryAttempt', {
  authScopes: readableWith('agents:read', 'agents:write'),
  fields: (t) => ({
    number: t.exposeInt('number'),
    at: t.expose('at', { type: 'DateTime' }),
    statusCode: t.exposeInt('statusCode', { nullable: true }),
    latencyMs: t.exposeInt('latencyMs'),
    error: t.exposeString('error', { nullable: true }),
  }),
});

export const DeliveryRef = builder.prismaObject('Delivery', {
  authScopes: readableWith('agents:read', 'agents:write'),
  description: 'One delivery of a task to its agent. Its id is the webhook-id, the same on every retry.',
  fields: (t) => ({
    id: t.exposeID('id'),
    taskId: t.exposeID('taskId'),
    type: t.exposeString('type', {
      description:
        'task.assigned (the task), task.input (the requester’s answer to an input request); for agents that speak A2A also a2a.get (GetTask) and a2a.cancel (CancelTask)',
    }),
    status: t.expose('status', { type: DeliveryStatusEnum }),
    attemptCount: t.exposeInt('attemptCount'),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    attempts: t.relation('attempts', { query: { orderBy: { number: 'asc' } } }),
  }),
});

// A page of the delivery log.
const deliveryListLimit = z.number().int().min(1, 'must be between 1 and 200').max(200, 'must be between 1 and 200');

builder.queryFields((t) => ({
  agentDeliveries: t.prismaField({
    type: ['Delivery'],
    description: "Deliveries to one of the caller's agents, newest first, with every attempt",
    authScopes: { scope: 'agents:read' },
    args: { agentId: t.arg.id({ required: true }), limit: t.arg.int({ defaultValue: 50 }).validate(deliveryListLimit) },
    resolve: async (query, _root, args, ctx) => {
      const agentId = String(args.agentId);
      await ctx.services.deliveries.checkAgentOwner(ctx.viewer!, agentId);
      return ctx.prisma.delivery.findMany({ ...query, where: { agentId }, orderBy: { id: 'desc' }, take: args.limit ?? 50 });
    },
  }),
}));

builder.mutationFields((t) => ({
  redeliver: t.prismaField({
    type: 'Delivery',
    description: 'Delivers a still-matched task again, now',
    authScopes: { scope: 'agents:write' },
    args: { agentId: t.arg.id({ required: true }), deliveryId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      await ctx.services.deliveries.redeliver(ctx.viewer!, String(args.agentId), String(args.deliveryId));
      return ctx.prisma.delivery.findUniqueOrThrow({ ...query, where: { id: String(args.deliveryId) } });
    },
  }),
}));
