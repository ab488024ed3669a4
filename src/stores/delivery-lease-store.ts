// The deliveries of pulling agents: a claim takes pending deliveries with a lease (an attempt held by
// `lease:<deliveryId>:<number>` in attemptJobId until leaseExpiresAt), extends or gives one back, and
// ends it with its attempt's record. Rules: services/pull/.
import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { DB, SqlDb } from '../db/kysely.js';
import type { Prisma, Task } from '../generated/prisma/client.js';
import { attemptColumns, type AttemptRecord, type DeliveryRelease } from './delivery-store.js';

// What marks an attempt as a pull agent's lease (the webhook's claims hold a graphile-worker job id).
export const LEASE_PREFIX = 'lease:';

// A delivery whose task waits for it: the task itself while it is matched, an answer to an input request
// while the agent works (as services/deliveries/attempt.ts decides for webhooks).
export const taskWaits = (eb: ExpressionBuilder<DB, 'deliveries' | 'tasks'>): Expression<SqlBool> =>
  eb.or([
    eb.and([eb('deliveries.type', '=', 'task.input'), eb('tasks.status', '=', 'in_progress')]),
    eb.and([eb('deliveries.type', '=', 'task.assigned'), eb('tasks.status', '=', 'matched')]),
  ]);

const leased = (eb: ExpressionBuilder<DB, 'deliveries'>) => eb('deliveries.attemptJobId', 'like', `${LEASE_PREFIX}%`);

export interface ClaimedRow {
  deliveryId: string;
  type: string;
  payload: Prisma.JsonValue;
  number: number;
  leaseExpiresAt: Date;
  task: {
    id: string;
    title: string;
    description: string;
    input: Prisma.JsonValue;
    capabilities: string[];
    priority: string;
    expiresAt: Date;
    inputHash: string | null;
    tokenNonce: string | null;
  };
}

export interface ClaimRequest {
  agentId: string;
  max: number;
  leaseMs: number;
  now: Date;
}

/**
 * Claims up to `max` of the agent's pending deliveries that no one holds and whose task waits for them,
 * oldest first: the attempt number, the lease and the job that looks at the lease when it ends, in one
 * statement. Rows another claim has locked are skipped (FOR UPDATE SKIP LOCKED), and a row claimed and
 * committed meanwhile no longer meets the condition when it is locked: each delivery goes to one claim.
 * With maxConcurrentTasks the agent's tasks in flight (with the agent, or matched under a live lease)
 * leave that much less room for new tasks; answers to input requests belong to tasks already counted.
 * `leaseJob`: the job call for a claimed row (its id as `deliveryId`, its run time as `leaseExpiresAt`).
 */
export async function claimDeliveries(db: SqlDb, c: ClaimRequest, leaseJob: (row: { deliveryId: RawBuilder<string>; runAt: RawBuilder<Date> }) => RawBuilder<unknown>): Promise<ClaimedRow[]> {
  const until = new Date(c.now.getTime() + c.leaseMs);
  const candidates = (type: 'task.input' | 'task.assigned', limit: RawBuilder<number> | number) =>
    db
      .selectFrom('deliveries')
      .innerJoin('tasks', 'tasks.id', 'deliveries.taskId')
      .select(['deliveries.id', 'deliveries.createdAt'])
      .where('deliveries.agentId', '=', c.agentId)
      .where('deliveries.status', '=', 'pending')
      .where('deliveries.type', '=', type)
      .where('deliveries.attemptJobId', 'is', null)
      .where((eb) => eb.or([eb('deliveries.nextAttemptAt', 'is', null), eb('deliveries.nextAttemptAt', '<=', c.now)]))
      .where('tasks.tokenNonce', 'is not', null)
      .where(taskWaits)
      .orderBy('deliveries.createdAt')
      .orderBy('deliveries.id')
      .limit(limit)
      .forUpdate('deliveries')
      .skipLocked();
  // Tasks the agent holds now: with it, or matched under a live lease.
  const inFlight = sql<number>`(SELECT count(*)::int FROM tasks ft WHERE ft.agent_id = ${c.agentId} AND (ft.status IN ('in_progress', 'input_required')
    OR (ft.status = 'matched' AND EXISTS (SELECT 1 FROM deliveries fd WHERE fd.task_id = ft.id AND fd.status = 'pending'
      AND fd.attempt_job_id LIKE ${`${LEASE_PREFIX}%`} AND fd.lease_expires_at > ${c.now}))))`;
  const room = sql<number>`(SELECT CASE WHEN a.max_concurrent_tasks IS NULL THEN ${c.max}::int
    ELSE GREATEST(0, LEAST(${c.max}::int, a.max_concurrent_tasks - ${inFlight})) END FROM agents a WHERE a.id = ${c.agentId})`;
  const rows = await db
    .with('pi', () => candidates('task.input', c.max))
    .with('pt', () => candidates('task.assigned', room))
    .with('c', (q) =>
      q
        .updateTable('deliveries')
        .set((eb) => ({
          attemptCount: eb('attemptCount', '+', 1),
          attemptJobId: sql<string>`${LEASE_PREFIX} || deliveries.id || ':' || (deliveries.attempt_count + 1)`,
          attemptStartedAt: c.now,
          leaseExpiresAt: until,
          updatedAt: c.now,
        }))
        .where('id', 'in', sql<string>`(SELECT p.id FROM (SELECT id, created_at, 0 AS k FROM pi UNION ALL SELECT id, created_at, 1 AS k FROM pt) p
          ORDER BY p.k, p.created_at, p.id LIMIT ${c.max}::int)`)
        .returning(['id', 'taskId', 'type', sql<string | null>`payload::text`.as('payload'), 'attemptCount', 'leaseExpiresAt', 'createdAt']),
    )
    .selectFrom('c')
    .innerJoin('tasks', 'tasks.id', 'c.taskId')
    .select([
      'c.id as deliveryId',
      'c.type',
      'c.payload',
      'c.attemptCount as number',
      'c.leaseExpiresAt',
      'tasks.id as taskId',
      'tasks.title',
      'tasks.description',
      sql<string | null>`tasks.input::text`.as('input'),
      'tasks.capabilities',
      'tasks.priority',
      'tasks.expiresAt',
      'tasks.inputHash',
      'tasks.tokenNonce',
      sql<string>`(${leaseJob({ deliveryId: sql<string>`c.id`, runAt: sql<Date>`c.lease_expires_at` })})::text`.as('job'),
    ])
    .orderBy('c.createdAt')
    .execute();
  const parsed = (text: string | null) => (text === null ? null : (JSON.parse(text) as Prisma.JsonValue));
  return rows.map((r) => ({
    deliveryId: r.deliveryId,
    type: r.type,
    payload: parsed(r.payload),
    number: r.number,
    leaseExpiresAt: r.leaseExpiresAt!,
    task: {
      id: r.taskId,
      title: r.title,
      description: r.description,
      input: parsed(r.input),
      capabilities: r.capabilities,
      priority: r.priority,
      expiresAt: r.expiresAt,
      inputHash: r.inputHash,
      tokenNonce: r.tokenNonce,
    },
  }));
}

// The agent's leases to settle now: ended (by `now`), or whose task no longer waits for them (answered,
// cancelled, expired). Oldest first, at most `limit`.
export async function leasesToSettle(db: SqlDb, agentId: string, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('deliveries')
    .innerJoin('tasks', 'tasks.id', 'deliveries.taskId')
    .select('deliveries.id')
    .where('deliveries.agentId', '=', agentId)
    .where('deliveries.status', '=', 'pending')
    .where(leased)
    .where((eb) => eb.or([eb('deliveries.leaseExpiresAt', '<=', now), eb.not(taskWaits(eb))]))
    .orderBy('deliveries.createdAt')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export interface LeaseState {
  deliveryId: string;
  agentId: string;
  taskId: string;
  status: string;
  // Whether its task waits for it now (taskWaits).
  waits: boolean;
  taskStatus: Task['status'];
  taskStartedAt: Date | null;
  expiresAt: Date;
  holder: string | null;
  number: number;
  startedAt: Date | null;
  leaseExpiresAt: Date | null;
  deliveryMode: 'push' | 'pull';
}

// A delivery as its lease's settlement reads it. Null: no such delivery.
export async function leaseState(db: SqlDb, deliveryId: string): Promise<LeaseState | null> {
  const row = await db
    .selectFrom('deliveries')
    .innerJoin('tasks', 'tasks.id', 'deliveries.taskId')
    .innerJoin('agents', 'agents.id', 'deliveries.agentId')
    .select((eb) => [
      'deliveries.id as deliveryId',
      'deliveries.agentId',
      'deliveries.taskId',
      'deliveries.status',
      eb.and([taskWaits(eb)]).as('waits'),
      'tasks.status as taskStatus',
      'tasks.startedAt as taskStartedAt',
      'tasks.expiresAt',
      'deliveries.attemptJobId as holder',
      'deliveries.attemptCount as number',
      'deliveries.attemptStartedAt as startedAt',
      'deliveries.leaseExpiresAt',
      'agents.deliveryMode',
    ])
    .where('deliveries.id', '=', deliveryId)
    .executeTakeFirst();
  return row ? { ...row, waits: row.waits === true } : null;
}

// The live lease the agent holds on a task (whose task still waits for it), newest first.
export async function heldLease(db: SqlDb, agentId: string, taskId: string, now: Date): Promise<{ deliveryId: string; holder: string; leaseExpiresAt: Date } | null> {
  const row = await db
    .selectFrom('deliveries')
    .innerJoin('tasks', 'tasks.id', 'deliveries.taskId')
    .select(['deliveries.id as deliveryId', 'deliveries.attemptJobId as holder', 'deliveries.leaseExpiresAt'])
    .where('deliveries.agentId', '=', agentId)
    .where('deliveries.taskId', '=', taskId)
    .where('deliveries.status', '=', 'pending')
    .where(leased)
    .where('deliveries.leaseExpiresAt', '>', now)
    .where(taskWaits)
    .orderBy('deliveries.createdAt', 'desc')
    .executeTakeFirst();
  return row && row.holder && row.leaseExpiresAt ? { deliveryId: row.deliveryId, holder: row.holder, leaseExpiresAt: row.leaseExpiresAt } : null;
}

/**
 * Moves a live lease's end to `until`, and its job with it, in one statement; only while `holder` holds
 * it and it has not ended by `now`. Null when it no longer did.
 */
export async function extendLease(db: SqlDb, l: { deliveryId: string; holder: string; until: Date; now: Date }, job: RawBuilder<unknown>): Promise<Date | null> {
  const row = await db
    .with('e', (q) =>
      q
        .updateTable('deliveries')
        .set({ leaseExpiresAt: l.until, updatedAt: l.now })
        .where('id', '=', l.deliveryId)
        .where('status', '=', 'pending')
        .where('attemptJobId', '=', l.holder)
        .where('leaseExpiresAt', '>', l.now)
        .returning('leaseExpiresAt'),
    )
    .selectFrom('e')
    .select(['e.leaseExpiresAt', sql<string>`(${job})::text`.as('job')])
    .executeTakeFirst();
  return row?.leaseExpiresAt ?? null;
}

/**
 * Ends the lease `holder` holds with its attempt's record and the delivery's release (the retry's job
 * when there is one), in one statement. False when that lease was already ended (by another process's
 * settlement, a give-back): nothing was written.
 */
export async function recordLeaseEnd(db: SqlDb, a: AttemptRecord, holder: string, release: DeliveryRelease, retryJob?: RawBuilder<unknown>): Promise<boolean> {
  const row = await db
    .with('d', (q) =>
      q
        .updateTable('deliveries')
        .set({
          attemptJobId: null,
          attemptStartedAt: null,
          leaseExpiresAt: null,
          nextAttemptAt: release.nextAttemptAt,
          ...(release.status ? { status: release.status } : {}),
          updatedAt: a.at,
        })
        .where('id', '=', a.deliveryId)
        .where('attemptJobId', '=', holder)
        .returning('id'),
    )
    .with('attempt', (q) =>
      q
        .insertInto('deliveryAttempts')
        .columns(['id', 'deliveryId', 'number', 'statusCode', 'latencyMs', 'at', 'error'])
        .expression((eb) =>
          eb
            .selectFrom('d')
            .select(attemptColumns(a)),
        ),
    )
    .selectFrom('d')
    .select(retryJob ? sql<string>`(${retryJob}).id::text`.as('job') : 'd.id')
    .executeTakeFirst();
  return row !== undefined;
}

// A leased delivery whose task was cancelled or expired under it: it ends failed, as a webhook delivery
// whose task stopped waiting does (no attempt is recorded against the agent). False: already ended.
export async function dropLease(db: SqlDb, deliveryId: string, holder: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('deliveries')
    .set({ status: 'failed', attemptJobId: null, attemptStartedAt: null, leaseExpiresAt: null, nextAttemptAt: null, updatedAt: now })
    .where('id', '=', deliveryId)
    .where('status', '=', 'pending')
    .where('attemptJobId', '=', holder)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

// What a claim needs of the agent: its owner, how it takes tasks, and its cap on tasks in flight.
export async function pullAgent(db: SqlDb, agentId: string) {
  return (await db.selectFrom('agents').select(['ownerId', 'deliveryMode', 'maxConcurrentTasks']).where('id', '=', agentId).executeTakeFirst()) ?? null;
}

// Claims of one capped agent take turns (the row lock, until their transaction ends), so two claims never
// both see room for the same last slot.
export async function lockAgentForClaims(db: SqlDb, agentId: string): Promise<void> {
  await db.selectFrom('agents').select('id').where('id', '=', agentId).forUpdate().execute();
}
