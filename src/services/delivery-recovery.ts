// Recovery: after an outage the owner sends again, once each, the deliveries whose attempts failed in a
// window, for tasks that still wait for their delivery. A single delivery's redeliver stays as it is.
import type { Deps } from '../deps.js';
import { forbidden, invalid, notFound } from '../errors.js';
import { enqueue } from '../jobs/enqueue.js';
import { deliverTask } from '../jobs/specs/task-deliver.js';
import type { Viewer } from './accounts.js';

// When a delivery still has something to deliver: the task itself while the task is matched, an answer
// to an input request while the agent works on the task (as deliveries.attempt decides).
const stillDeliverable = [
  { type: 'task.input', task: { status: 'in_progress' as const } },
  { type: { not: 'task.input' }, task: { status: 'matched' as const } },
];

export interface RecoverResult {
  recovered: number;
  deliveryIds: string[];
  since: Date;
  until: Date;
}

export function deliveryRecovery(deps: Deps) {
  const { prisma, clock } = deps;
  return {
    async recover(viewer: Viewer, agentId: string, since: Date, until: Date | null | undefined): Promise<RecoverResult> {
      const agent = await prisma.agent.findUnique({ where: { id: agentId }, select: { ownerId: true } });
      if (!agent) throw notFound('agent');
      if (agent.ownerId !== viewer.id) throw forbidden('you do not own this agent');
      const end = until ?? clock.now();
      if (end <= since) throw invalid('until', 'until must be after since');
      return prisma.$transaction(async (t) => {
        const due = await t.delivery.findMany({
          where: {
            agentId,
            status: { not: 'succeeded' },
            OR: stillDeliverable,
            attempts: { some: { at: { gte: since, lt: end }, error: { not: null } } },
          },
          select: { id: true },
          orderBy: { id: 'asc' },
        });
        const ids = due.map((d) => d.id);
        if (ids.length > 0) {
          await t.delivery.updateMany({ where: { id: { in: ids } }, data: { status: 'pending', nextAttemptAt: clock.now() } });
          // One job per delivery (its key): a retry already queued is brought forward, not doubled.
          for (const deliveryId of ids) await enqueue(t, deliverTask, { deliveryId });
        }
        return { recovered: ids.length, deliveryIds: ids, since, until: end };
      });
    },
  };
}

export type DeliveryRecovery = ReturnType<typeof deliveryRecovery>;
