// The tasks table's columns by the Task model's field names, with the type a parameter is cast to: for
// the moves written in SQL (task-states.ts), whose RETURNING gives back a Task exactly as Prisma would.
// Typed by the model's fields, so the compiler points here when the model gains one.
import type { Db } from '../db/client.js';
import type { Payment, Prisma, Task } from '../generated/prisma/client.js';
import { rowOf, selectionOf, type Columns } from '../db/columns.js';
import { PAYMENT_COLUMNS } from './payment-columns.js';

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

// The task with its payment, in SQL: every callback reads it (a model call costs about twice a raw
// statement, bench/prisma-call-cost.ts). Null for an unknown task.
export async function taskWithPayment(db: Db, id: string): Promise<(Task & { payment: Payment | null }) | null> {
  const [row] = await db.$queryRaw<Array<Record<string, unknown>>>`
    SELECT ${taskSelection('t')}, ${selectionOf(PAYMENT_COLUMNS, 'p', 'payment.')}
    FROM tasks t LEFT JOIN payments p ON p.task_id = t.id WHERE t.id = ${id}`;
  const task = row ? rowOf(TASK_COLUMNS, row, '') : null;
  return task ? { ...task, payment: rowOf(PAYMENT_COLUMNS, row!, 'payment.') } : null;
}
