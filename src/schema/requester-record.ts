// A requester's record, readable by agent owners (and by the requester himself).
import { forbidden, notFound } from '../errors.js';
import { requesterRecord, type RequesterRecord } from '../reputation/requester-record.js';
import { builder } from './builder.js';

const RequesterRecordRef = builder.objectRef<RequesterRecord>('RequesterRecord').implement({
  description: "A requester's approvals, rejections, disputes and cancellations (tasks on his own agents left out)",
  fields: (t) => ({
    requesterId: t.exposeID('requesterId'),
    tasks: t.exposeInt('tasks', { description: 'Tasks that reached an agent' }),
    reviewed: t.exposeInt('reviewed', { description: 'Results he approved or rejected' }),
    approvalRate: t.exposeFloat('approvalRate', { nullable: true }),
    rejectionRate: t.exposeFloat('rejectionRate', { nullable: true }),
    disputeRate: t.exposeFloat('disputeRate', { nullable: true, description: 'Rejections the agent contested' }),
    cancellationRate: t.exposeFloat('cancellationRate', { nullable: true }),
  }),
});

builder.queryFields((t) => ({
  requesterRecord: t.field({
    type: RequesterRecordRef,
    description: "A requester's record; for owners of agents (and the requester himself)",
    authScopes: { scope: 'tasks:read' },
    args: { requesterId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const requesterId = String(args.requesterId);
      const prisma = ctx.services.deps.prisma;
      const viewer = ctx.viewer!;
      if (viewer.id !== requesterId && (await prisma.agent.count({ where: { ownerId: viewer.id } })) === 0) {
        throw forbidden("only owners of agents may read a requester's record");
      }
      if (!(await prisma.user.findUnique({ where: { id: requesterId }, select: { id: true } }))) throw notFound('requester');
      return requesterRecord(ctx.services.deps.sql, requesterId);
    },
  }),
}));
