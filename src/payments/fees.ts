// The platform's share of a task's price, in basis points of the price (1000 = 10%). The fee is rounded
// down, so a fraction of a cent goes to the agent's owner, who receives the price less the fee.
export function platformFeeCents(amountCents: number, feeBps: number): number {
  return Math.floor((amountCents * feeBps) / 10_000);
}

// All amounts are in this currency; prices carry no currency of their own.
export const CURRENCY = 'usd';
