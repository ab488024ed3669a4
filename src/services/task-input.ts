// The task inputs, as the zod schemas attached to their GraphQL arguments (schema/tasks.ts): the only
// statement of their limits and defaults; the OpenAPI document reads the limits from them too.
import { z } from 'zod';
import { tagList } from './validation.js';

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


export const routeQuery = z.object({
  capabilities: tagList.nullish().transform((v) => v ?? []),
  protocols: tagList.nullish().transform((v) => v ?? []),
  maxPriceCents: z.number().int('must be a whole number of cents').min(0, 'must not be negative').nullish().transform((v) => v ?? null),
  limit: z.number().int('must be a whole number').min(1, 'must be at least 1').max(50, 'must be at most 50').nullish().transform((v) => v ?? 5),
});

export type RouteQuery = z.infer<typeof routeQuery>;

// A page of the task list.
export const taskListLimit = z.number().int().min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100');

// The request key a repeated creation is recognised by (the Idempotency-Key header over REST).
export const idempotencyKey = z.string().min(1, 'must be 1 to 255 characters').max(255, 'must be 1 to 255 characters');
