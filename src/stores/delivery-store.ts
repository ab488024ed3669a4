// The deliveries and delivery_attempts tables' SQL: the claim of an attempt, its record with the
// delivery's release (and the retry's job), and the delivery's other small moves. Rules:
// services/deliveries/.
import { sql, type Expression, type ExpressionBuilder, type Insertable, type RawBuilder, type SqlBool } from 'kysely';
import { compiledStatement } from '../db/compiled-statement.js';
import { shapedStatement } from '../db/shaped-statement.js';
import type { DB, SqlDb } from '../db/kysely.js';
import type { DeliveryAttempt } from '../generated/kysely/types.js';
import type { Agent, Delivery, Prisma, Task } from '../generated/prisma/client.js';
import type { JsonSql } from './json.js';
import { moveCtes, moveSelections, moveValues, type AnnouncedTask, type MoveValues, type MoveWrite } from './task-store.js';
import { endpointRuleForms, type EndpointRule } from './agent-store.js';
import { quietSuccessForms, type QuietSuccess } from './agent-health-store.js';
import { taskWaitsForDelivery } from './delivery-waits.js';

export type AttemptRecord = Insertable<DeliveryAttempt> & { at: Date };

// An attempt's row as the select list of an INSERT … SELECT: written only when the statement's other
// step (the FROM it selects from) took effect.
export function attemptColumns(a: AttemptRecord) {
  return [
    sql<string>`${a.id}::text`.as('id'),
    sql<string>`${a.deliveryId}::text`.as('deliveryId'),
    sql<number>`${a.number}::int`.as('number'),
    sql<number | null>`${a.statusCode ?? null}::int`.as('statusCode'),
    sql<number>`${a.latencyMs}::int`.as('latencyMs'),
    sql<Date>`${a.at}::timestamptz`.as('at'),
    sql<string | null>`${a.error ?? null}::text`.as('error'),
  ];
}

// What the attempt leaves the delivery with: `status` null keeps it pending (a retry at nextAttemptAt).
export interface DeliveryRelease {
  status: 'succeeded' | 'failed' | null;
  nextAttemptAt: Date | null;
}

// A pending delivery that no other job sends right now, or whose claim has lapsed.
// `claimedBefore`: a claim taken before then has lapsed.
const claimable =
  ({ jobId, claimedBefore }: { jobId: string; claimedBefore: Date }) =>
  (eb: ExpressionBuilder<DB, 'deliveries'>) =>
    eb.and([
      eb('status', '=', 'pending'),
      eb.or([eb('attemptJobId', 'is', null), eb('attemptJobId', '=', jobId), eb('attemptStartedAt', '<', claimedBefore)]),
    ]);

/**
 * Claims the next attempt number for `jobId` in one conditional update, so two jobs never send the same
 * delivery at once nor record the same attempt number. Null: another job holds the claim (one that has
 * held it longer than `claimMs` is taken over: its holder vanished).
 */
export async function claimAttempt(db: SqlDb, deliveryId: string, jobId: string, claimMs: number, now: Date): Promise<number | null> {
  const row = await db
    .updateTable('deliveries')
    .set((eb) => ({ attemptCount: eb('attemptCount', '+', 1), attemptJobId: jobId, attemptStartedAt: now, updatedAt: now }))
    .where('id', '=', deliveryId)
    .where(claimable({ jobId, claimedBefore: new Date(now.getTime() - claimMs) }))
    .returning('attemptCount')
    .executeTakeFirst();
  return row?.attemptCount ?? null;
}

// A delivery with what its attempt needs of its task and agent, as one statement read them.
export interface DeliveryToSend {
  delivery: Pick<Delivery, 'id' | 'type' | 'payload' | 'status'>;
  task: Pick<Task, 'id' | 'status' | 'title' | 'description' | 'input' | 'capabilities' | 'priority' | 'expiresAt' | 'inputHash' | 'tokenNonce' | 'startedAt'>;
  agent: Pick<
    Agent,
    | 'id'
    | 'ownerId'
    | 'endpoint'
    | 'protocols'
    | 'deliveryMode'
    | 'a2aCard'
    | 'deliveryState'
    | 'endpointFailStreak'
    | 'maxDeliveriesPerSecond'
    | 'webhookSecretEnc'
    | 'previousWebhookSecretEnc'
    | 'previousWebhookSecretExpiresAt'
    | 'signingKeyEnc'
    | 'previousSigningKeyEnc'
    | 'previousSigningKeyExpiresAt'
    | 'healthStatus'
    | 'healthFailStreak'
    | 'lastHealthyAt'
    | 'healthCheckedAt'
  >;
  // Whether the row met `sendable`, and the attempt number claimed for the job then; null when another
  // job holds the claim or the row did not meet it.
  sendable: boolean;
  number: number | null;
}

/**
 * Reads the delivery with its task and agent and, when the row says the attempt can go out at once,
 * claims it as claimAttempt does, in one statement. `sendable`: the conditions of that, on the row read
 * (the caller's rules decide the other cases from the row, and claim with claimAttempt if they send).
 * Null for an unknown delivery.
 */
type Sendable = (eb: ExpressionBuilder<DB, 'deliveries' | 'tasks' | 'agents'>) => Expression<SqlBool>;

// The read and claim of every delivery attempt, compiled once per `sendable` condition (the service
// passes one, so one statement); its values are parameters (db/compiled-statement.ts).
function claimAndReadStatement(sendable: Sendable) {
  return compiledStatement((db, param) =>
    db
      .with('r', (q) =>
        q
          .selectFrom('deliveries')
          .innerJoin('tasks', 'tasks.id', 'deliveries.taskId')
          .innerJoin('agents', 'agents.id', 'deliveries.agentId')
          .select((eb) => [
            'deliveries.type',
            // JSON columns as their text: the driver's objects would have their keys renamed by the
            // camelCase mapping of the results.
            sql<string | null>`deliveries.payload::text`.as('payload'),
            'deliveries.status',
            'tasks.id as taskId',
            'tasks.status as taskStatus',
            'tasks.title',
            'tasks.description',
            sql<string | null>`tasks.input::text`.as('input'),
            'tasks.capabilities',
            'tasks.priority',
            'tasks.expiresAt',
            'tasks.inputHash',
            'tasks.tokenNonce',
            'tasks.startedAt',
            'agents.id as agentId',
            'agents.ownerId',
            'agents.endpoint',
            'agents.protocols',
            'agents.deliveryMode',
            sql<string | null>`agents.a2a_card::text`.as('a2aCard'),
            'agents.deliveryState',
            'agents.endpointFailStreak',
            'agents.maxDeliveriesPerSecond',
            'agents.webhookSecretEnc',
            'agents.previousWebhookSecretEnc',
            'agents.previousWebhookSecretExpiresAt',
            'agents.signingKeyEnc',
            'agents.previousSigningKeyEnc',
            'agents.previousSigningKeyExpiresAt',
            'agents.healthStatus',
            'agents.healthFailStreak',
            'agents.lastHealthyAt',
            'agents.healthCheckedAt',
            eb.and([sendable(eb)]).as('sendable'),
          ])
          .where('deliveries.id', '=', param<string>('deliveryId')),
      )
      .with('c', (q) =>
        q
          .updateTable('deliveries')
          .set((eb) => ({ attemptCount: eb('attemptCount', '+', 1), attemptJobId: param<string>('jobId'), attemptStartedAt: param<Date>('now'), updatedAt: param<Date>('now') }))
          .where('id', '=', param<string>('deliveryId'))
          .where(claimable({ jobId: param<string>('jobId'), claimedBefore: param<Date>('claimedBefore') }))
          .where((eb) => eb.exists(eb.selectFrom('r').select('r.taskId').where('r.sendable', '=', true)))
          .returning('attemptCount'),
      )
      .selectFrom('r')
      .selectAll('r')
      .select((eb) => eb.selectFrom('c').select('c.attemptCount').as('number')),
  );
}
const claimAndReadStatements = new WeakMap<Sendable, ReturnType<typeof claimAndReadStatement>>();

export async function claimAndRead(db: SqlDb, c: { deliveryId: string; jobId: string; claimMs: number; now: Date }, sendable: Sendable): Promise<DeliveryToSend | null> {
  let statement = claimAndReadStatements.get(sendable);
  if (!statement) claimAndReadStatements.set(sendable, (statement = claimAndReadStatement(sendable)));
  const [row] = (await statement.run(db, { deliveryId: c.deliveryId, jobId: c.jobId, now: c.now, claimedBefore: new Date(c.now.getTime() - c.claimMs) })).rows;
  if (!row) return null;
  const parsed = (text: string | null) => (text === null ? null : (JSON.parse(text) as Prisma.JsonValue));
  return {
    delivery: { id: c.deliveryId, type: row.type, payload: parsed(row.payload), status: row.status },
    task: {
      id: row.taskId,
      status: row.taskStatus,
      title: row.title,
      description: row.description,
      input: parsed(row.input),
      capabilities: row.capabilities,
      priority: row.priority,
      expiresAt: row.expiresAt,
      inputHash: row.inputHash,
      tokenNonce: row.tokenNonce,
      startedAt: row.startedAt,
    },
    agent: {
      id: row.agentId,
      ownerId: row.ownerId,
      endpoint: row.endpoint,
      protocols: row.protocols,
      deliveryMode: row.deliveryMode,
      a2aCard: parsed(row.a2aCard),
      deliveryState: row.deliveryState,
      endpointFailStreak: row.endpointFailStreak,
      maxDeliveriesPerSecond: row.maxDeliveriesPerSecond,
      webhookSecretEnc: row.webhookSecretEnc,
      previousWebhookSecretEnc: row.previousWebhookSecretEnc,
      previousWebhookSecretExpiresAt: row.previousWebhookSecretExpiresAt,
      signingKeyEnc: row.signingKeyEnc,
      previousSigningKeyEnc: row.previousSigningKeyEnc,
      previousSigningKeyExpiresAt: row.previousSigningKeyExpiresAt,
      healthStatus: row.healthStatus,
      healthFailStreak: row.healthFailStreak,
      lastHealthyAt: row.lastHealthyAt,
      healthCheckedAt: row.healthCheckedAt,
    },
    sendable: row.sendable === true,
    number: row.number ?? null,
  };
}

/**
 * A delivered attempt that changes nothing but the delivery and its task, in one statement: the attempt,
 * the delivery's release, and the task's move (moveCtes of task-store.ts), each only if the move applies
 * and the agent's row still reads as `agent` says (its health and endpoint state need no write). Null
 * when they did not: nothing was written, and the caller records the attempt the general way.
 */
export async function recordDelivered(db: SqlDb, a: AttemptRecord, move: MoveWrite, agent: QuietAgent): Promise<MovedTask | null> {
  let statement = recordDeliveredStatements.get(agent.endpointChanges);
  if (!statement) recordDeliveredStatements.set(agent.endpointChanges, (statement = recordDeliveredStatement(agent.endpointChanges)));
  const [row] = (await statement.run(db, { a, move: moveValues(move), agentId: agent.id, health: agent.health })).rows;
  if (!row) return null;
  if (row.released === 0) throw new Error(`delivery ${a.deliveryId} is gone`);
  return { id: row.id, status: row.status, requesterId: row.requesterId, agentId: row.agentId };
}

// What the statement returns of the moved task: what its announcement says (each column of the task's
// ~50 read would cost the driver and the row's mapping on every delivery).
export type MovedTask = AnnouncedTask;

// The agent's row as a delivered attempt that writes nothing on it must still find it: health that a
// success leaves as it is, and an endpoint that does not meet the rule under which a delivery changes it.
export interface QuietAgent {
  id: string;
  health: QuietSuccess;
  endpointChanges: EndpointRule;
}

// One statement per endpoint rule (its operators are part of the text), compiled once per shape of the
// attempt and the move; the health rule's values are parameters.
const recordDeliveredStatement = (endpointChanges: EndpointRule) =>
  shapedStatement((db, v: { a: AttemptRecord; move: MoveValues; agentId: string; health: QuietSuccess }) =>
    moveCtes(db, v.move, (eb) =>
      eb.exists(
        eb
          .selectFrom('agents')
          .select('agents.id')
          .where('agents.id', '=', v.agentId)
          .where((ab) => ab.and([quietSuccessForms.sql(v.health)(ab), ab.not(endpointRuleForms.sql(endpointChanges)(ab))])),
      ),
    )
      .with('attempt', (q) =>
        q
          .insertInto('deliveryAttempts')
          .columns(['id', 'deliveryId', 'number', 'statusCode', 'latencyMs', 'at', 'error'])
          .expression((eb) => eb.selectFrom('m').select(attemptColumns(v.a))),
      )
      .with('released', (q) =>
        q
          .updateTable('deliveries')
          .set({ attemptJobId: null, attemptStartedAt: null, nextAttemptAt: null, status: 'succeeded', updatedAt: v.a.at })
          .where('id', '=', v.a.deliveryId)
          .where((eb) => eb.exists(eb.selectFrom('m').select('m.id')))
          .returning('id'),
      )
      .selectFrom('m')
      .select(['m.id', 'm.status', 'm.requesterId', 'm.agentId'])
      .select(moveSelections(v.move))
      .select(sql<number>`(SELECT count(*) FROM released)::int`.as('released')),
  );
const recordDeliveredStatements = new WeakMap<EndpointRule, ReturnType<typeof recordDeliveredStatement>>();

/**
 * Records the attempt and ends its claim on the delivery, with the retry's job when there is one: one
 * statement. A delivery that is gone (its task deleted meanwhile) throws, so the transaction does not
 * commit half of it (the insert's foreign key fails first in that case).
 */
export async function recordAttempt(db: SqlDb, a: AttemptRecord, release: DeliveryRelease, retryJob?: RawBuilder<unknown>): Promise<void> {
  const row = await db
    .with('attempt', (q) => q.insertInto('deliveryAttempts').values(a))
    .with('d', (q) =>
      q
        .updateTable('deliveries')
        .set({
          attemptJobId: null,
          attemptStartedAt: null,
          nextAttemptAt: release.nextAttemptAt,
          ...(release.status ? { status: release.status } : {}),
          updatedAt: a.at,
        })
        .where('id', '=', a.deliveryId)
        .returning('id'),
    )
    .selectFrom('d')
    .select(retryJob ? sql<string>`(${retryJob}).id::text`.as('job') : 'd.id')
    .executeTakeFirst();
  if (!row) throw new Error(`delivery ${a.deliveryId} is gone`);
}

// A delivery whose task no longer waits for it: it ends failed.
export async function dropDelivery(db: SqlDb, deliveryId: string): Promise<void> {
  await db.updateTable('deliveries').set({ status: 'failed', nextAttemptAt: null }).where('id', '=', deliveryId).where('status', '=', 'pending').execute();
}

// The endpoint is disabled: the delivery waits, without a time, until its owner enables it again.
export async function parkDelivery(db: SqlDb, deliveryId: string): Promise<void> {
  await db.updateTable('deliveries').set({ nextAttemptAt: null }).where('id', '=', deliveryId).where('status', '=', 'pending').execute();
}

export interface NewDelivery {
  id: string;
  taskId: string;
  agentId: string;
  // 'task.assigned' when absent (the column's default).
  type?: string;
  payload?: JsonSql;
  now: Date;
}

// A delivery and the job that sends it, in one statement.
export async function insertDelivery(db: SqlDb, d: NewDelivery, job: RawBuilder<unknown>): Promise<void> {
  const { now, ...values } = d;
  await db
    .with('d', (q) => q.insertInto('deliveries').values({ ...values, createdAt: now, updatedAt: now }).returning('id'))
    .selectFrom('d')
    .select(sql<string>`(${job}).id::text`.as('job'))
    .executeTakeFirstOrThrow();
}

// Whether the task has an A2A link (the agent told us which of its tasks is ours).
export async function hasA2ALink(db: SqlDb, taskId: string): Promise<boolean> {
  return (await db.selectFrom('a2aTaskLinks').select('taskId').where('taskId', '=', taskId).executeTakeFirst()) !== undefined;
}

// The task's deliveries of one type (pending ones only, when asked).
export async function deliveriesOfType(db: SqlDb, taskId: string, type: string, pendingOnly = false): Promise<number> {
  const row = await db
    .selectFrom('deliveries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('taskId', '=', taskId)
    .where('type', '=', type)
    .$if(pendingOnly, (q) => q.where('status', '=', 'pending'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// A delivery that never made an attempt is removed (it leaves nothing in the log).
export async function removeUnattempted(db: SqlDb, deliveryId: string): Promise<void> {
  await db.deleteFrom('deliveries').where('id', '=', deliveryId).where('status', '=', 'pending').where('attemptCount', '=', 0).execute();
}

// The agent's deliveries not yet succeeded, of tasks that still wait for them (the lifecycle's
// DELIVERY_WAITS_FOR), with a
// failed attempt in [since, until). Ids in order.
export async function failedInWindow(db: SqlDb, agentId: string, since: Date, until: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('deliveries as d')
    .innerJoin('tasks as t', 't.id', 'd.taskId')
    .select('d.id')
    .where('d.agentId', '=', agentId)
    .where('d.status', '<>', 'succeeded')
    .where(taskWaitsForDelivery('d.type', 't.status'))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('deliveryAttempts as a')
          .select('a.id')
          .whereRef('a.deliveryId', '=', 'd.id')
          .where('a.at', '>=', since)
          .where('a.at', '<', until)
          .where('a.error', 'is not', null),
      ),
    )
    .orderBy('d.id', 'asc')
    .execute();
  return rows.map((r) => r.id);
}

// Deliveries sent again now (pending, due now).
export async function reopenDeliveries(db: SqlDb, ids: readonly string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('deliveries').set({ status: 'pending', nextAttemptAt: now, updatedAt: now }).where('id', 'in', ids).execute();
}

// Retention (delivery/retention.ts): attempts recorded before `before` go; so does a finished delivery
// last changed before it that is left without attempts. A pending delivery stays, however old.
export async function pruneDeliveryLog(db: SqlDb, before: Date): Promise<{ attempts: number; deliveries: number }> {
  const attempts = await db.deleteFrom('deliveryAttempts').where('at', '<', before).executeTakeFirst();
  const deliveries = await db
    .deleteFrom('deliveries as d')
    .where('d.status', '<>', 'pending')
    .where('d.updatedAt', '<', before)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('deliveryAttempts as a').select('a.id').whereRef('a.deliveryId', '=', 'd.id'))))
    .executeTakeFirst();
  return { attempts: Number(attempts.numDeletedRows), deliveries: Number(deliveries.numDeletedRows) };
}

// The agent's pending deliveries, by id.
export async function pendingDeliveryIds(db: SqlDb, agentId: string): Promise<string[]> {
  const rows = await db.selectFrom('deliveries').select('id').where('agentId', '=', agentId).where('status', '=', 'pending').orderBy('id').execute();
  return rows.map((r) => r.id);
}

// A delivery with the status of its task; undefined when there is none.
export async function deliveryWithTaskStatus(db: SqlDb, deliveryId: string) {
  return db
    .selectFrom('deliveries as d')
    .innerJoin('tasks as t', 't.id', 'd.taskId')
    .select(['d.id', 'd.agentId', 'd.type', 't.status as taskStatus'])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}

// The delivery pending again, due now, with the job that sends it, in one statement.
export async function reopenDelivery(db: SqlDb, deliveryId: string, now: Date, job: RawBuilder<unknown>): Promise<void> {
  await db
    .with('d', (q) => q.updateTable('deliveries').set({ status: 'pending', nextAttemptAt: now, updatedAt: now }).where('id', '=', deliveryId).returning('id'))
    .selectFrom('d')
    .select(sql<string>`(${job}).id::text`.as('job'))
    .execute();
}
