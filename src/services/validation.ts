// Pieces of input validation shared by the services.
import { z } from 'zod';
import { invalid } from '../errors.js';

// Capabilities, protocols, categories and tags: lower-cased and de-duplicated, so routing and filters
// match regardless of how they were spelled.
export const tagList = z
  .array(z.string().trim().min(1, 'entries must not be empty').max(64, 'entries must be at most 64 characters'))
  .max(50, 'at most 50 entries')
  .transform((list) => [...new Set(list.map((s) => s.toLowerCase()))]);

// Parses with a zod schema; the first problem becomes a 400 naming its field.
export function parseOrInvalid<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? 'body');
  throw invalid(field, `${field} ${issue.message}`);
}
