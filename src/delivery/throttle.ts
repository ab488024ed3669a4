// maxDeliveriesPerSecond: delivery attempts to one agent go out at most that many per one-second window
// (the service's clock). The window lives on the agent's row and is taken under its row lock, so
// workers in several processes count together. An attempt over the rate is not a failure: its job comes
// back when the window ends. The writes leave updatedAt (the owner's last edit) alone.
import type { SqlTx } from '../db/kysely.js';

export const RATE_WINDOW_MS = 1000;

/** Takes a slot in the agent's current window; null when allowed, else when the next window opens. */
export async function takeDeliverySlot(tx: SqlTx, agentId: string, now: Date): Promise<Date | null> {
  const agent = await tx
    .selectFrom('agents')
    .select(['maxDeliveriesPerSecond as rate', 'deliveryWindowStart as start', 'deliveryWindowCount as count'])
    .where('id', '=', agentId)
    .forUpdate()
    .executeTakeFirst();
  if (!agent || agent.rate === null) return null;
  const windowOpen = agent.start !== null && now.getTime() - agent.start.getTime() < RATE_WINDOW_MS && now >= agent.start;
  if (!windowOpen) {
    await tx.updateTable('agents').set({ deliveryWindowStart: now, deliveryWindowCount: 1 }).where('id', '=', agentId).execute();
    return null;
  }
  if (agent.count < agent.rate) {
    await tx
      .updateTable('agents')
      .set((eb) => ({ deliveryWindowCount: eb('deliveryWindowCount', '+', 1) }))
      .where('id', '=', agentId)
      .execute();
    return null;
  }
  return new Date(agent.start!.getTime() + RATE_WINDOW_MS);
}
