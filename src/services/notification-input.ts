// The account settings an owner may change: where operational events go.
import { z } from 'zod';
import { checkUrlShape } from '../delivery/url-guard.js';

export const accountInput = z.object({
  notificationUrl: z
    .string()
    .trim()
    .max(2048, 'must be at most 2048 characters')
    .nullable()
    .transform((v) => (v === '' ? null : v))
    .superRefine((value, ctx) => {
      const check = value ? checkUrlShape(value) : null;
      if (check && !check.ok) ctx.addIssue({ code: 'custom', message: `is not a usable URL: ${check.reason}` });
    }),
}).partial();

export type AccountInput = z.output<typeof accountInput>;

export const notificationListLimit = z.number().int().min(1, 'must be between 1 and 200').max(200, 'must be between 1 and 200');
