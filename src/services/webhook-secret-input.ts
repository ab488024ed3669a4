// How long a rotated-out webhook secret keeps signing deliveries beside the new one. Svix's figures:
// a day by default, a week at most; 0 ends the old secret at once.
import { z } from 'zod';

export const DEFAULT_SECRET_GRACE_SECONDS = 86_400;
export const MAX_SECRET_GRACE_SECONDS = 604_800;

export const graceSeconds = z
  .number()
  .int('must be a whole number of seconds')
  .min(0, 'must not be negative')
  .max(MAX_SECRET_GRACE_SECONDS, `must be at most ${MAX_SECRET_GRACE_SECONDS} (7 days)`)
  .nullish();
