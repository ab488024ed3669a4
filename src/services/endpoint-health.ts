// The delivery state of an agent's endpoint: active; failing from the first failed attempt after a
// success; disabled after ENDPOINT_DISABLE_AFTER_FAILURES failed attempts in a row that span at least
// ENDPOINT_DISABLE_AFTER_SECONDS. A disabled endpoint gets no deliveries (they wait) and routing passes
// it over; its owner enables it again after a successful test ping. Every change is an operational
// event for the owner (notifications.ts), in the transaction of the attempt that caused it. SQL in
// stores/agent-store.ts.
import type { Deps } from '../deps.js';
import type { SqlTx } from '../db/kysely.js';
import { withTransaction } from '../db/transaction.js';
import { conflict } from '../errors.js';
import { enqueue } from '../stores/job-store.js';
import { agentChanged } from '../jobs/specs/agent-changed.js';
import { deliverTask } from '../jobs/specs/task-deliver.js';
import {
  agentById,
  countEndpointFailure,
  disableEndpoint,
  enableEndpoint,
  endpointRuleForms,
  markEndpointDelivered,
  markEndpointFailing,
  recordPingOk,
  type EndpointFigures,
  type EndpointRule,
} from '../stores/agent-store.js';
import { pendingDeliveryIds } from '../stores/delivery-store.js';
import { mustOwn } from './agents.js';
import type { Viewer } from './accounts/index.js';
import type { RecordedAttempt } from './deliveries/index.js';
import type { NotificationService } from './notifications.js';

// A delivered attempt makes a failing endpoint active again and ends its streak of failures (a disabled
// one waits for its owner): it writes when the state is not disabled, and it is failing or has failures.
// Stated once; its row form and its SQL are made from it (stores/agent-store.ts endpointRuleForms).
const DELIVERED_CHANGES_ENDPOINT: EndpointRule = [
  [['deliveryState', '<>', 'disabled']],
  [
    ['deliveryState', '=', 'failing'],
    ['endpointFailStreak', '>', 0],
  ],
];

export const deliveredChangesEndpoint = {
  row: (a: EndpointFigures) => endpointRuleForms.row(DELIVERED_CHANGES_ENDPOINT, a),
  sql: endpointRuleForms.sql(DELIVERED_CHANGES_ENDPOINT),
  rule: DELIVERED_CHANGES_ENDPOINT,
};

// Whether a delivered attempt leaves the endpoint's state as it is, on a row read before (no statement
// is needed then).
export const deliveredLeavesEndpoint = (a: EndpointFigures) => !deliveredChangesEndpoint.row(a);

export function endpointHealthService(deps: Deps, notifications: NotificationService) {
  const { config, clock } = deps;
  const { disableAfterFailures, disableAfterSeconds } = config.deliveryOps;

  async function recordAttempt(tx: SqlTx, agentId: string, ok: boolean): Promise<void> {
    const now = clock.now();
    if (ok) {
      await markEndpointDelivered(tx, agentId, DELIVERED_CHANGES_ENDPOINT);
      return;
    }
    // Locks the agent's row until the transaction ends: concurrent attempts count one by one.
    const agent = await countEndpointFailure(tx, agentId);
    if (!agent) return;
    if (agent.deliveryState === 'active') {
      await markEndpointFailing(tx, agentId, now);
      await notifications.notify(tx, agentId, 'endpoint.failing', { failingSince: now.toISOString(), failures: agent.endpointFailStreak });
      return;
    }
    if (agent.deliveryState !== 'failing') return;
    const since = agent.endpointFailingSince ?? now;
    if (agent.endpointFailStreak >= disableAfterFailures && now.getTime() - since.getTime() >= disableAfterSeconds * 1000) {
      await disableEndpoint(tx, agentId, now);
      await notifications.notify(tx, agentId, 'endpoint.disabled', {
        failSince: since.toISOString(),
        failures: agent.endpointFailStreak,
        trigger: 'automatic',
      });
      await enqueue(tx, agentChanged, { agentId });
    }
  }

  return {
    /**
     * Whether deliveryRecorded writes nothing for attempt `number` delivered to the agent whose row read
     * `agent` (no state to change, no event): then the rule the row must still not meet when the
     * attempt is recorded without it, else null.
     */
    deliveredLeavesState(agent: EndpointFigures, number: number) {
      return number === 1 && deliveredLeavesEndpoint(agent) ? deliveredChangesEndpoint.rule : null;
    },

    // DeliveryHooks.deliveryRecorded: the endpoint's state, and the delivery's own events.
    async deliveryRecorded(tx: SqlTx, r: RecordedAttempt): Promise<void> {
      // A pulling agent has no endpoint to mark failing or disable: its health counts its leases' ends.
      if (!r.pulled) await recordAttempt(tx, r.agentId, r.outcome === 'delivered');
      if (r.outcome === 'given_up') {
        await notifications.notify(tx, r.agentId, 'delivery.exhausted', { deliveryId: r.deliveryId, taskId: r.taskId, attempts: r.number });
      }
      if (r.outcome === 'delivered' && r.number > 1) {
        await notifications.notify(tx, r.agentId, 'delivery.recovered', { deliveryId: r.deliveryId, taskId: r.taskId, attempts: r.number });
      }
    },

    // A test ping answered 2xx: the evidence enabling needs.
    async pingSucceeded(agentId: string): Promise<void> {
      await recordPingOk(deps.sql, agentId, clock.now());
    },

    // Re-enables a disabled endpoint after a successful test ping since it was disabled; the deliveries
    // that waited go out again and waiting tasks may route to it.
    async enable(viewer: Viewer, agentId: string): Promise<void> {
      await withTransaction(deps.sql, async (tx) => {
        const agent = mustOwn(viewer, await agentById(tx, agentId));
        if (agent.deliveryState !== 'disabled') {
          throw conflict(`the endpoint is ${agent.deliveryState}; only a disabled endpoint is enabled`, { deliveryState: agent.deliveryState });
        }
        if (!agent.endpointPingOkAt || (agent.endpointDisabledAt && agent.endpointPingOkAt < agent.endpointDisabledAt)) {
          throw conflict('send a test ping that succeeds first (POST /v1/agents/:id/webhook/test)', { deliveryState: agent.deliveryState, testPingRequired: true });
        }
        if (!(await enableEndpoint(tx, agentId))) throw conflict('the endpoint changed meanwhile; read it again', { deliveryState: 'active' });
        for (const id of await pendingDeliveryIds(tx, agentId)) await enqueue(tx, deliverTask, { deliveryId: id });
        await enqueue(tx, agentChanged, { agentId });
      });
    },
  };
}

export type EndpointHealthService = ReturnType<typeof endpointHealthService>;
