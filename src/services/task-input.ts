// Validation of a task creation request; each failure names its field.
import { z } from 'zod';
import { parseOrInvalid, tagList } from './validation.js';

export const MAX_EXPIRES_IN_MINUTES = 10_080;

export const createTask = z.object({
  title: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  description: z.string().trim().min(1, 'must not be empty').max(20_000, 'must be at most 20000 characters'),
  input: z
    .record(z.string(), z.unknown(), { error: 'must be a JSON object' })
    .nullish()
    .transform((v) => v ?? null),
  agentId: z.string().min(1).nullish().transform((v) => v ?? null),
  capabilities: tagList.nullish().transform((v) => v ?? []),
  protocols: tagList.nullish().transform((v) => v ?? []),
  priority: z.enum(['low', 'normal', 'high', 'urgent']).nullish().transform((v) => v ?? 'normal'),
  maxPriceCents: z
    .number()
    .int('must be a whole number of cents')
    .min(0, 'must not be negative')
    .nullish()
    .transform((v) => v ?? null),
  expiresInMinutes: z
    .number()
    .positive('must be greater than 0')
    .max(MAX_EXPIRES_IN_MINUTES, `must be at most ${MAX_EXPIRES_IN_MINUTES} (7 days)`)
    .nullish()
    .transform((v) => v ?? 60),
});

export type CreateTaskInput = z.infer<typeof createTask>;

export const parseCreateTask = (raw: Record<string, unknown>): CreateTaskInput => parseOrInvalid(createTask, raw);

export const routeQuery = z.object({
  capabilities: tagList.nullish().transform((v) => v ?? []),
  protocols: tagList.nullish().transform((v) => v ?? []),
  maxPriceCents: z.number().int('must be a whole number of cents').min(0, 'must not be negative').nullish().transform((v) => v ?? null),
  limit: z.number().int('must be a whole number').min(1, 'must be at least 1').max(50, 'must be at most 50').nullish().transform((v) => v ?? 5),
});

export const parseRouteQuery = (raw: Record<string, unknown>) => parseOrInvalid(routeQuery, raw);
