// The platform's share of a task's price, in basis points of the price (1000 = 10%). The fee is rounded
// down, so a fraction of a cent goes to the agent's owner.
export function platformFeeCents(amountCents: number, feeBps: number): number {
  return Math.floor((amountCents * feeBps) / 10_000);
}

export function ownerShareCents(amountCents: number, feeBps: number): number {
  return amountCents - platformFeeCents(amountCents, feeBps);
}

// All amounts are in this currency; prices carry no currency of their own.
export const CURRENCY = 'usd';
