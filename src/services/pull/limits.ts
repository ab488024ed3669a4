// The bounds of a claim: how many tasks at once, how long a long poll waits, how long a lease holds. A
// claim is cheap while it waits (no connection, no timer per event), but each one holds a socket, and a
// lease keeps a task from every other worker, so each is bounded; out of range is refused, naming the field.
import { z } from 'zod';

export const CLAIM_MAX = { default: 1, min: 1, max: 50 } as const;
export const WAIT_SECONDS = { default: 20, min: 0, max: 60 } as const;
export const LEASE_SECONDS = { default: 300, min: 10, max: 3600 } as const;

const between = (b: { min: number; max: number }, unit: string) =>
  z
    .number()
    .int('must be a whole number')
    .min(b.min, `must be between ${b.min} and ${b.max}${unit}`)
    .max(b.max, `must be between ${b.min} and ${b.max}${unit}`);

export const claimMax = between(CLAIM_MAX, '');
export const waitSeconds = between(WAIT_SECONDS, ' seconds');
export const leaseSeconds = between(LEASE_SECONDS, ' seconds');

export interface ClaimOptions {
  max?: number | null;
  waitSeconds?: number | null;
  leaseSeconds?: number | null;
}
