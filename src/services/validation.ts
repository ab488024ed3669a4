// Input validation: the one place a failed check becomes the coded error, and pieces the input schemas
// share. GraphQL arguments are checked by these schemas through Pothos's validation plugin
// (schema/builder.ts); the few inputs that never pass through GraphQL (the CLI's) parse with the same
// schema objects here.
import { z } from 'zod';
import type { StandardSchemaV1 } from '@pothos/plugin-validation';
import { invalidFields, plainWords, type AppError } from '../errors.js';

export { plainWords };

// Capabilities, protocols, categories and tags: lower-cased and de-duplicated, so routing and filters
// match regardless of how they were spelled.
export const tagList = z
  .array(z.string().trim().min(1, 'entries must not be empty').max(64, 'entries must be at most 64 characters'))
  .max(50, 'at most 50 entries')
  .transform((list) => [...new Set(list.map((s) => s.toLowerCase()))]);

// A field an owner may leave out but not set to null.
export const notNull = { error: (issue: { input: unknown }) => (issue.input === null ? 'cannot be null' : undefined) };

const keyOf = (segment: PropertyKey | StandardSchemaV1.PathSegment) => (typeof segment === 'object' ? segment.key : segment);

/**
 * Every problem as one 400 INVALID_INPUT naming its field (the first as `field`): the argument, or for an input object the
 * field inside it (`{ input: { name } }` → `name`, `{ input: { requirements: { deadline } } }` →
 * `requirements.deadline`), which is what the REST body calls it too. List positions are left out.
 */
export function invalidInput(issues: readonly StandardSchemaV1.Issue[]): AppError {
  const problems: Array<{ field: string; message: string }> = [];
  for (const issue of issues) {
    const [first, ...rest] = (issue.path ?? []).map(keyOf);
    const inner = rest.filter((segment): segment is string => typeof segment === 'string');
    const field = inner.length ? inner.join('.') : String(first ?? 'input');
    if (!problems.some((p) => p.field === field)) problems.push({ field, message: plainWords(issue.message) });
  }
  return invalidFields(problems);
}

// For inputs that do not come through a GraphQL argument (the CLI's); `field` names a single value.
export function parseOrInvalid<S extends z.ZodType>(schema: S, raw: unknown, field?: string): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw invalidInput(parsed.error.issues.map((issue) => ({ ...issue, path: field ? [field, ...issue.path] : issue.path })));
}
