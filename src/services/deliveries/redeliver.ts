// The owner asks for a still-matched task to be delivered again now.
import { conflict, notFound } from '../../errors.js';
import { deliverTask } from '../../jobs/specs/task-deliver.js';
import { deliveryWaitsFor } from '../../lifecycle/task-lifecycle.js';
import * as store from '../../stores/delivery-store.js';
import { jobCall } from '../../stores/job-store.js';
import type { Viewer } from '../accounts/index.js';
import { ownedAgent, type DeliveryCore } from './context.js';

export async function redeliver(ctx: DeliveryCore, viewer: Viewer, agentId: string, deliveryId: string): Promise<void> {
  const { deps } = ctx;
  await ownedAgent(ctx, viewer, agentId);
  const delivery = await store.deliveryWithTaskStatus(deps.sql, deliveryId);
  if (!delivery || delivery.agentId !== agentId) throw notFound('delivery');
  // Only while the task still waits for this delivery (the task itself: while it is matched).
  const waitsFor = deliveryWaitsFor(delivery.type);
  if (delivery.taskStatus !== waitsFor) {
    throw conflict(`the task is ${delivery.taskStatus}; this delivery is sent again only while its task is ${waitsFor}`, { status: delivery.taskStatus });
  }
  await store.reopenDelivery(deps.sql, deliveryId, deps.clock.now(), jobCall(deliverTask, { deliveryId }));
}
