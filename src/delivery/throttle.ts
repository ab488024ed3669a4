// maxDeliveriesPerSecond: delivery attempts to one agent go out at most that many per one-second window
// (the service's clock). The window lives on the agent's row and is taken under its row lock, so
// workers in several processes count together. An attempt over the rate is not a failure: its job comes
// back when the window ends. The writes leave updatedAt (the owner's last edit) alone.
import type { SqlTx } from '../db/kysely.js';
import { countInDeliveryWindow, lockDeliveryWindow, openDeliveryWindow } from '../stores/agent-store.js';

export const RATE_WINDOW_MS = 1000;

/** Takes a slot in the agent's current window; null when allowed, else when the next window opens. */
export async function takeDeliverySlot(tx: SqlTx, agentId: string, now: Date): Promise<Date | null> {
  const agent = await lockDeliveryWindow(tx, agentId);
  if (!agent || agent.rate === null) return null;
  const windowOpen = agent.start !== null && now.getTime() - agent.start.getTime() < RATE_WINDOW_MS && now >= agent.start;
  if (!windowOpen) {
    await openDeliveryWindow(tx, agentId, now);
    return null;
  }
  if (agent.count < agent.rate) {
    await countInDeliveryWindow(tx, agentId);
    return null;
  }
  return new Date(agent.start!.getTime() + RATE_WINDOW_MS);
}
