// The tasks table's columns by the Task model's field names, with the type a parameter is cast to: for
// the moves written in SQL (task-states.ts), whose RETURNING gives back a Task exactly as Prisma would.
// Typed by the model's fields, so the compiler points here when the model gains one.
import { Prisma, type Task } from '../generated/prisma/client.js';
import { isEnumCast, selectionOf, type Cast, type Columns } from '../db/columns.js';

export const TASK_COLUMNS: Columns<Task> = {
  id: ['id', 'text'],
  requesterId: ['requester_id', 'text'],
  agentId: ['agent_id', 'text'],
  requestedAgentId: ['requested_agent_id', 'text'],
  status: ['status', 'TaskStatus'],
  title: ['title', 'text'],
  description: ['description', 'text'],
  input: ['input', 'jsonb'],
  capabilities: ['capabilities', 'text[]'],
  protocols: ['protocols', 'text[]'],
  priority: ['priority', 'TaskPriority'],
  maxPriceCents: ['max_price_cents', 'int'],
  result: ['result', 'jsonb'],
  error: ['error', 'text'],
  tokenNonce: ['token_nonce', 'text'],
  tokenHash: ['token_hash', 'text'],
  rating: ['rating', 'int'],
  ratedAt: ['rated_at', 'timestamptz'],
  expiresAt: ['expires_at', 'timestamptz'],
  matchedAt: ['matched_at', 'timestamptz'],
  startedAt: ['started_at', 'timestamptz'],
  finishedAt: ['finished_at', 'timestamptz'],
  createdAt: ['created_at', 'timestamptz'],
  updatedAt: ['updated_at', 'timestamptz'],
  idempotencyKey: ['idempotency_key', 'text'],
  reviewWindowSeconds: ['review_window_seconds', 'int'],
  requirements: ['requirements', 'jsonb'],
  routing: ['routing_explanation', 'jsonb'],
  inputHash: ['input_hash', 'text'],
  resultHash: ['result_hash', 'text'],
  inputRequest: ['input_request', 'jsonb'],
  inputRequestedAt: ['input_requested_at', 'timestamptz'],
  inputRounds: ['input_rounds', 'int'],
  reviewEndsAt: ['review_ends_at', 'timestamptz'],
  approvedBy: ['approved_by', 'text'],
  disputeReason: ['dispute_reason', 'text'],
  disputeStatement: ['dispute_statement', 'text'],
  disputeContestedAt: ['dispute_contested_at', 'timestamptz'],
  disputeAnswerBy: ['dispute_answer_by', 'timestamptz'],
};

// `<alias>.column AS "field", …` for a RETURNING or SELECT that yields Task rows (enums as their text).
export const taskSelection = (alias: string): Prisma.Sql => selectionOf(TASK_COLUMNS, alias);

// One value for a SET clause, cast to its column's type; null when the field is not a plain column
// value (an atomic operation such as { increment }), which SQL moves then leave to Prisma.
export function taskValue(field: string, value: unknown): Prisma.Sql | null {
  const entry = (TASK_COLUMNS as Record<string, readonly [string, Cast] | undefined>)[field];
  if (!entry) return null;
  const [, cast] = entry;
  if (value === null || value === Prisma.DbNull || value === Prisma.JsonNull) {
    // JsonNull is JSON's null, DbNull (and null elsewhere) the column's NULL.
    return value === Prisma.JsonNull ? Prisma.sql`'null'::jsonb` : Prisma.sql`NULL`;
  }
  if (cast === 'jsonb') return Prisma.sql`${JSON.stringify(value)}::jsonb`;
  if (value instanceof Date) return cast === 'timestamptz' ? Prisma.sql`${value}::timestamptz` : null;
  if (typeof value === 'object') return null;
  return Prisma.sql`${value}::${Prisma.raw(isEnumCast(cast) ? `"${cast}"` : cast)}`;
}

export function columnOf(field: string): string {
  const entry = (TASK_COLUMNS as Record<string, readonly [string, Cast] | undefined>)[field];
  if (!entry) throw new Error(`tasks has no column for ${field}`);
  return entry[0];
}
