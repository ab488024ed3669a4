// maxDeliveriesPerSecond: delivery attempts to one agent go out at most that many per one-second window
// (the service's clock). The window lives on the agent's row and is taken under its row lock, so
// workers in several processes count together. An attempt over the rate is not a failure: its job comes
// back when the window ends. Raw SQL leaves updatedAt (the owner's last edit) alone.
import type { Tx } from '../db/client.js';

export const RATE_WINDOW_MS = 1000;

/** Takes a slot in the agent's current window; null when allowed, else when the next window opens. */
export async function takeDeliverySlot(tx: Tx, agentId: string, now: Date): Promise<Date | null> {
  const [agent] = await tx.$queryRaw<Array<{ rate: number | null; start: Date | null; count: number }>>`
    SELECT max_deliveries_per_second AS rate, delivery_window_start AS start, delivery_window_count AS count
    FROM agents WHERE id = ${agentId} FOR UPDATE`;
  if (!agent || agent.rate === null) return null;
  const windowOpen = agent.start !== null && now.getTime() - agent.start.getTime() < RATE_WINDOW_MS && now >= agent.start;
  if (!windowOpen) {
    await tx.$executeRaw`UPDATE agents SET delivery_window_start = ${now}, delivery_window_count = 1 WHERE id = ${agentId}`;
    return null;
  }
  if (agent.count < agent.rate) {
    await tx.$executeRaw`UPDATE agents SET delivery_window_count = delivery_window_count + 1 WHERE id = ${agentId}`;
    return null;
  }
  return new Date(agent.start!.getTime() + RATE_WINDOW_MS);
}
