// Limits of the delivery operations' inputs.
import { z } from 'zod';

// A recovery window's end must come after its start; checked in the service, where both are known.
export const recoverSince = z.date({ error: 'must be an ISO 8601 date-time' });
export const recoverUntil = z.date({ error: 'must be an ISO 8601 date-time' }).nullish();
