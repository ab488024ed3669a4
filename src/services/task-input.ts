// The task inputs, as the zod schemas attached to their GraphQL arguments (schema/tasks.ts): the only
// statement of their limits and defaults; the OpenAPI document reads the limits from them too.
import { z } from 'zod';
import { tagList } from './validation.js';

export const MAX_EXPIRES_IN_MINUTES = 10_080;

// A task's input, an answer to an input request, an agent's result: any JSON object.
export const jsonObject = z.record(z.string(), z.unknown(), { error: 'must be a JSON object' });
// A task's time to finish plus its review window must fit inside a card hold's life (payments/hold-life.ts),
// so the payment can still be captured when the result is approved.
import { CARD_HOLD_SECONDS } from '../payments/hold-life.js';
export { CARD_HOLD_SECONDS };

export const TRUST_TIERS = ['unrated', 'bronze', 'silver', 'gold', 'diamond'] as const;

// What routing must respect. Every field is optional; maxPriceCents here and on the task mean the same.
export const taskRequirements = z.object({
  minTrustTier: z.enum(TRUST_TIERS).nullish().transform((v) => v ?? null),
  minSuccessRate: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').nullish().transform((v) => v ?? null),
  verifiedOnly: z.boolean().nullish().transform((v) => v ?? false),
  maxPriceCents: z.number().int('must be a whole number of cents').min(0, 'must not be negative').nullish().transform((v) => v ?? null),
  deadline: z.date({ error: 'must be an ISO 8601 time' }).nullish().transform((v) => v ?? null),
});

export type TaskRequirements = z.infer<typeof taskRequirements>;

export const createTask = z.object({
  title: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  description: z.string().trim().min(1, 'must not be empty').max(20_000, 'must be at most 20000 characters'),
  input: jsonObject
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
  reviewWindowSeconds: z
    .number()
    .int('must be a whole number of seconds')
    .min(0, 'must not be negative')
    .nullish()
    .transform((v) => v ?? 0),
  requirements: taskRequirements.nullish().transform((v) => v ?? null),
}).superRefine((task, ctx) => {
  if (task.expiresInMinutes * 60 + task.reviewWindowSeconds > CARD_HOLD_SECONDS) {
    ctx.addIssue({
      code: 'custom',
      path: ['reviewWindowSeconds'],
      message: `plus expiresInMinutes must fit in a card hold's life of ${CARD_HOLD_SECONDS} seconds (7 days)`,
    });
  }
});

export type CreateTaskInput = z.infer<typeof createTask>;


export const routeQuery = z.object({
  requirements: taskRequirements.nullish().transform((v) => v ?? null),
  input: jsonObject
    .nullish()
    .transform((v) => v ?? null),
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

// The trust moves' inputs.
const MAX_MESSAGE = 4_000;
export const inputRequest = z.object({
  message: z.string().trim().min(1, 'must not be empty').max(MAX_MESSAGE, `must be at most ${MAX_MESSAGE} characters`),
  // A JSON Schema the answer must meet, bounded like an agent's inputSchema (checked in the service).
  inputSchema: z.record(z.string(), z.unknown(), { error: 'must be a JSON Schema object' }).nullish().transform((v) => v ?? null),
});
export type InputRequest = z.infer<typeof inputRequest>;

export const rejectReason = z.string().trim().min(1, 'must be 1 to 1024 characters').max(1024, 'must be 1 to 1024 characters');
export const contestStatement = z.string().trim().min(1, 'must be 1 to 4000 characters').max(MAX_MESSAGE, 'must be 1 to 4000 characters');
export const disputeResolution = z.object({
  task: z.string().min(1, 'is required'),
  outcome: z.enum(['refund', 'pay'], { error: 'must be refund or pay' }),
  note: z.string().trim().min(1, 'must be 1 to 4000 characters').max(MAX_MESSAGE, 'must be 1 to 4000 characters'),
});

// What an agent answers: a result object, or an error message.
export const MAX_ERROR_LENGTH = 10_000;
export const taskError = z.string().trim().min(1, 'must not be empty').max(MAX_ERROR_LENGTH, `must be at most ${MAX_ERROR_LENGTH} characters`);
