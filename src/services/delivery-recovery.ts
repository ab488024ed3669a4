// Recovery: after an outage the owner sends again, once each, the deliveries whose attempts failed in a
// window, for tasks that still wait for their delivery. A single delivery's redeliver stays as it is.
import type { Deps } from '../deps.js';
import { forbidden, invalid, notFound } from '../errors.js';
import { enqueue } from '../stores/job-store.js';
import { ownerOfAgent } from '../stores/agent-store.js';
import { failedInWindow, reopenDeliveries } from '../stores/delivery-store.js';
import { deliverTask } from '../jobs/specs/task-deliver.js';
import type { Viewer } from './accounts/index.js';

export interface RecoverResult {
  recovered: number;
  deliveryIds: string[];
  since: Date;
  until: Date;
}

export function deliveryRecovery(deps: Deps) {
  const { clock } = deps;
  return {
    async recover(viewer: Viewer, agentId: string, since: Date, until: Date | null | undefined): Promise<RecoverResult> {
      const ownerId = await ownerOfAgent(deps.sql, agentId);
      if (!ownerId) throw notFound('agent');
      if (ownerId !== viewer.id) throw forbidden('you do not own this agent');
      const end = until ?? clock.now();
      if (end <= since) throw invalid('until', 'until must be after since');
      return deps.sql.transaction().execute(async (t) => {
        const ids = await failedInWindow(t, agentId, since, end);
        if (ids.length > 0) {
          await reopenDeliveries(t, ids, clock.now());
          // One job per delivery (its key): a retry already queued is brought forward, not doubled.
          for (const deliveryId of ids) await enqueue(t, deliverTask, { deliveryId });
        }
        return { recovered: ids.length, deliveryIds: ids, since, until: end };
      });
    },
  };
}

export type DeliveryRecovery = ReturnType<typeof deliveryRecovery>;
