// The tasks table's SQL: the insert with what rides on it, every status move (one conditional statement
// with its history entry, its event, its jobs), and the reads the moves need. Rules live in
// services/tasks/ and services/task-states.ts; this module knows columns, not why.
import { jsonObjectFrom } from 'kysely/helpers/postgres';
import { sql, type Expression, type ExpressionBuilder, type Insertable, type QueryCreator, type RawBuilder, type Selectable, type SqlBool, type Updateable } from 'kysely';
import { compiledStatement } from '../db/compiled-statement.js';
import { shapedStatement } from '../db/shaped-statement.js';
import type { DB, SqlDb } from '../db/kysely.js';
import type { Task as TaskTable } from '../generated/kysely/types.js';
import type { Payment, Prisma, Task, TaskStatus } from '../generated/prisma/client.js';
import { jsonOf, type JsonSql, type WithJson } from './json.js';
import { paymentFromJson, type NewTaskPayment, type PaymentMove } from './payment-store.js';

// A task row as the services know it (Prisma's Task): the tables' types and Prisma's agree field by
// field, checked here by the compiler, except `routing`, which Prisma names apart from its column.
export function taskOf({ routingExplanation, input, result, requirements, inputRequest, ...row }: Selectable<TaskTable>): Task {
  return {
    ...row,
    input: jsonOf(input),
    result: jsonOf(result),
    requirements: jsonOf(requirements),
    inputRequest: jsonOf(inputRequest),
    routing: jsonOf(routingExplanation),
  };
}

export type NewTask = Omit<WithJson<Insertable<TaskTable>>, 'updatedAt'>;

// What a move may write besides its status (the stamps, and the move's own data).
export type TaskChanges = Omit<WithJson<Updateable<TaskTable>>, 'id' | 'status' | 'updatedAt' | 'createdAt' | 'requesterId'>;

export interface TaskInsertExtras {
  // updated_at, as Prisma's @updatedAt would set it.
  now: Date;
  // A job the task causes (jobCall or jobsCall of stores/job-store.ts), added once for the row.
  job?: RawBuilder<unknown>;
}

// The insert and the job: one statement, one round trip. The agent's row is not written: its task count
// follows from the agent.figures job (jobs/specs/agent-figures.ts), so tasks for one agent never wait
// for each other on it. Compiled once per shape of the row (its optional columns).
const insertTaskStatement = shapedStatement((db, v: { row: NewTask; now: Date; job?: RawBuilder<unknown> }) =>
  db
    .with('m', (q) => q.insertInto('tasks').values({ ...v.row, updatedAt: v.now }).returningAll())
    .selectFrom('m')
    .selectAll('m')
    .$if(v.job !== undefined, (q) => q.select(sql<string>`(${v.job}).id::text`.as('job'))),
);

export async function insertTask(db: SqlDb, row: NewTask, extras: TaskInsertExtras): Promise<Task> {
  const [inserted] = (await insertTaskStatement.run(db, { row, now: extras.now, job: extras.job })).rows;
  if (!inserted) throw new Error('the task insert returned no row');
  const { job: _job, ...task } = inserted;
  return taskOf(task);
}

// The history entry a move writes: who, why.
export interface HistoryEntry {
  id: string;
  actor: string;
  actorId: string | null;
  note: string | null;
  data: Prisma.InputJsonValue | undefined;
}

// Conditions besides the status that a move needs the row to meet (a dispute not yet contested, the
// input round the caller saw).
export interface MoveGuard {
  inputRounds?: number;
  disputeContestedAt?: null;
}

export interface MoveWrite {
  taskId: string;
  action: string;
  from: TaskStatus;
  to: TaskStatus;
  now: Date;
  changes: TaskChanges;
  guard?: MoveGuard;
  history: HistoryEntry;
  // The live events' channel (a PostgreSQL server's bus): the event leaves with the commit (pg_notify).
  notify: string | null;
  // A job to remove with the move (the expiry job of a task that finished).
  removeJobKey: string | null;
  // Jobs the move causes (jobCall), added once for the row.
  jobs?: RawBuilder<unknown>[];
  // The delivery a match creates.
  deliveryId?: string;
  // A new task that makes the move as it is inserted: its row as created in `from`, written with the move's
  // changes. The other parts of a statement cannot see a row it inserts, so a new task's first move is
  // written by its insert, not by an update after it.
  insert?: NewTask;
  // The payment of a new task, written with it.
  payment?: NewTaskPayment;
  // The payment's move that goes with the task's (its settling, when the task finishes).
  paymentMove?: PaymentMove;
}

// A move that applied: the task as it is now (or as much of it as the caller asked for), and its payment
// when the statement wrote one.
export interface Moved<T = Task> {
  task: T;
  // The payment inserted with a new task (`payment`), or moved by `paymentMove`; null when it found the
  // payment elsewhere, or there was none to write.
  payment: Payment | null;
}

// The event a move announces, as the event bus sends it (events/bus.ts TaskEvent), built from the row.
const eventJson = sql<string>`json_build_object('taskId', m.id, 'status', m.status::text, 'requesterId', m.requester_id,
  'agentOwnerId', (SELECT owner_id FROM agents WHERE id = m.agent_id), 'agentId', m.agent_id)::text`;

/**
 * One move, when the task is still in `from` (and meets the guard), or a new task's first move: the
 * update (or insert), its history entry, its event, the job removal, the jobs it causes, a match's delivery
 * and the payment written with the task, in one statement. Null when the row did not match, in which case
 * nothing else was written either (every other part reads the written row `m`).
 */
export async function applyMove(db: SqlDb, w: MoveWrite): Promise<Moved | null> {
  const [row] = (await moveStatement.run(db, moveValues(w))).rows;
  if (!row) return null;
  const { insertedPayment, movedPayment, ...moved } = row;
  return { task: movedTask(moved), payment: writtenPayment({ insertedPayment, movedPayment }) };
}

// What a move's caller may ask back of the task when it only announces the move and answers with its
// status (the agent's callback): each column of the task's ~50 read would cost the driver and the row's
// mapping on every answer.
export type AnnouncedTask = Pick<Task, 'id' | 'status' | 'requesterId' | 'agentId'>;

// `applyMove`, returning only what the move's announcement says of the task.
export async function applyMoveAnnounced(db: SqlDb, w: MoveWrite): Promise<Moved<AnnouncedTask> | null> {
  const [row] = (await announcedMoveStatement.run(db, moveValues(w))).rows;
  if (!row) return null;
  return { task: { id: row.id, status: row.status, requesterId: row.requesterId, agentId: row.agentId }, payment: writtenPayment(row) };
}

// A move as its statement takes it: the history entry's data as JSON text, so that every value is a
// parameter of a statement compiled once per shape of the move (db/shaped-statement.ts).
export type MoveValues = Omit<MoveWrite, 'history'> & { history: Omit<HistoryEntry, 'data'> & { data: string | null } };

export function moveValues(w: MoveWrite): MoveValues {
  return { ...w, history: { ...w.history, data: w.history.data === undefined ? null : JSON.stringify(w.history.data) } };
}

// The payment a move's statement wrote, as JSON: inserted with a new task (pi) or moved (pm).
type MoveCtesDb = ReturnType<typeof moveCtes> extends QueryCreator<infer D> ? D : never;
const writtenPayments = (eb: ExpressionBuilder<MoveCtesDb, 'm'>) => [
  jsonObjectFrom(eb.selectFrom('pi').selectAll('pi')).as('insertedPayment'),
  jsonObjectFrom(eb.selectFrom('pm').selectAll('pm')).as('movedPayment'),
];
const writtenPayment = (row: { insertedPayment: Parameters<typeof paymentFromJson>[0] | null; movedPayment: Parameters<typeof paymentFromJson>[0] | null }) => {
  const written = row.insertedPayment ?? row.movedPayment;
  return written ? paymentFromJson(written) : null;
};

const moveStatement = shapedStatement((db, v: MoveValues) =>
  moveCtes(db, v)
    .selectFrom('m')
    .selectAll('m')
    .select(moveSelections(v))
    .select(writtenPayments),
);

const announcedMoveStatement = shapedStatement((db, v: MoveValues) =>
  moveCtes(db, v)
    .selectFrom('m')
    .select(['m.id', 'm.status', 'm.requesterId', 'm.agentId'])
    .select(moveSelections(v))
    .select(writtenPayments),
);

/**
 * The parts of `applyMove` as the CTEs of a bigger statement (m: the updated or inserted row, h, d, pi,
 * pm, n, x), which selects `moveSelections(w)` from `m` and reads its row with `movedTask`. `also`: a
 * further condition the update needs, so that the other parts of that statement can depend on the move
 * as a whole (not for a new task's insert). Takes the move as moveValues gives it, so that a shaped
 * statement (db/shaped-statement.ts) can hold it.
 */
export function moveCtes(db: SqlDb, w: MoveValues, also?: (eb: ExpressionBuilder<DB, 'tasks'>) => Expression<SqlBool>) {
  const { guard = {}, payment = null, paymentMove = null } = w;
  if (w.insert && also) throw new Error('a new task\'s insert takes no further condition');
  return db
    .with('m', (q) => {
      if (w.insert) return q.insertInto('tasks').values({ ...w.insert, ...w.changes, status: w.to, updatedAt: w.now }).returningAll();
      let update = q
        .updateTable('tasks')
        .set({ ...w.changes, status: w.to, updatedAt: w.now })
        .where('id', '=', w.taskId)
        .where('status', '=', w.from);
      if (guard.inputRounds !== undefined) update = update.where('inputRounds', '=', guard.inputRounds);
      if ('disputeContestedAt' in guard) update = update.where('disputeContestedAt', 'is', null);
      if (also) update = update.where(also);
      return update.returningAll();
    })
    .with('h', (q) =>
      q
        .insertInto('taskHistory')
        .columns(['id', 'taskId', 'at', 'actor', 'actorId', 'action', 'fromStatus', 'toStatus', 'note', 'data'])
        .expression((eb) =>
          eb
            .selectFrom('m')
            .select([
              sql<string>`${w.history.id}::text`.as('id'),
              'm.id as taskId',
              sql<Date>`${w.now}::timestamptz`.as('at'),
              sql<string>`${w.history.actor}::text`.as('actor'),
              sql<string | null>`${w.history.actorId}::text`.as('actorId'),
              sql<string>`${w.action}::text`.as('action'),
              sql<TaskStatus>`${w.from}::"TaskStatus"`.as('fromStatus'),
              sql<TaskStatus>`${w.to}::"TaskStatus"`.as('toStatus'),
              sql<string | null>`${w.history.note}::text`.as('note'),
              sql<unknown>`${w.history.data}::jsonb`.as('data'),
            ]),
        ),
    )
    .with('d', (q) =>
      q
        .insertInto('deliveries')
        .columns(['id', 'taskId', 'agentId', 'createdAt', 'updatedAt'])
        .expression((eb) =>
          eb
            .selectFrom('m')
            .select([
              sql<string>`${w.deliveryId ?? null}::text`.as('id'),
              'm.id as taskId',
              sql<string>`m.agent_id`.as('agentId'),
              sql<Date>`${w.now}::timestamptz`.as('createdAt'),
              sql<Date>`${w.now}::timestamptz`.as('updatedAt'),
            ])
            .where(sql<boolean>`${w.deliveryId ?? null}::text IS NOT NULL`),
        ),
    )
    .with('pi', (q) =>
      q
        .insertInto('payments')
        .columns(['id', 'taskId', 'method', 'status', 'amountCents', 'payeeId', 'createdAt', 'updatedAt'])
        .expression((eb) =>
          eb
            .selectFrom('m')
            .select([
              sql<string>`${payment?.id ?? null}::text`.as('id'),
              'm.id as taskId',
              sql<Payment['method']>`${payment?.method ?? null}::"PaymentMethod"`.as('method'),
              sql<Payment['status']>`${payment?.status ?? null}::"PaymentStatus"`.as('status'),
              sql<number>`${payment?.amountCents ?? null}::int`.as('amountCents'),
              sql<string | null>`${payment?.payeeId ?? null}::text`.as('payeeId'),
              sql<Date>`${payment?.createdAt ?? null}::timestamptz`.as('createdAt'),
              sql<Date>`${payment?.createdAt ?? null}::timestamptz`.as('updatedAt'),
            ])
            .where(sql<boolean>`${payment?.id ?? null}::text IS NOT NULL`),
        )
        .returningAll(),
    )
    .with('pm', (q) =>
      q
        .updateTable('payments')
        .from('m')
        .set({ ...paymentMove?.changes, status: paymentMove?.to ?? 'authorized', updatedAt: w.now })
        .whereRef('payments.taskId', '=', 'm.id')
        .where('payments.id', '=', paymentMove?.id ?? '')
        .where('payments.status', 'in', paymentMove?.from ?? ['authorized'])
        .where(sql<boolean>`${paymentMove?.id ?? null}::text IS NOT NULL`)
        .returningAll('payments'),
    )
    // Parts that only read run when they are read: the final select counts them.
    .with('n', (q) => q.selectFrom('m').select(sql`pg_notify(${w.notify}::text, ${eventJson})`.as('sent')).where(sql<boolean>`${w.notify}::text IS NOT NULL`))
    .with('x', (q) =>
      q.selectFrom('m').select(sql`graphile_worker.remove_job(${w.removeJobKey}::text)`.as('removed')).where(sql<boolean>`${w.removeJobKey}::text IS NOT NULL`),
    );
}

// The final select's parts besides the row: the counts that make the read-only parts run, and the jobs.
export function moveSelections(w: Pick<MoveWrite, 'jobs'>) {
  return [
    sql<number>`(SELECT count(*) FROM n)::int`.as('notified'),
    sql<number>`(SELECT count(*) FROM x)::int`.as('removed'),
    ...(w.jobs ?? []).map((job, i) => sql<string>`(${job}).id::text`.as(`job${i}`)),
  ];
}

// The moved task from a row of `moveSelections` (and any columns of its own the caller drops first).
export function movedTask(row: Selectable<TaskTable> & { notified: number; removed: number }): Task {
  const { notified: _n, removed: _r, ...task } = row as typeof row & Record<`job${number}`, string>;
  for (const key of Object.keys(task)) if (/^job\d+$/.test(key)) delete (task as Record<string, unknown>)[key];
  return taskOf(task);
}

// Where a task is now, as a move needs to know it.
export async function taskStatusOf(db: SqlDb, taskId: string): Promise<Pick<Task, 'status' | 'startedAt'> | null> {
  return (await db.selectFrom('tasks').select(['status', 'startedAt']).where('id', '=', taskId).executeTakeFirst()) ?? null;
}

export async function findTask(db: SqlDb, taskId: string): Promise<Task | null> {
  const row = await db.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirst();
  return row ? taskOf(row) : null;
}

// The task with its payment: every callback reads it, in one statement compiled once.
const taskWithPaymentStatement = compiledStatement((db, param) =>
  db
    .selectFrom('tasks as t')
    .selectAll('t')
    .select((eb) => jsonObjectFrom(eb.selectFrom('payments as p').selectAll('p').whereRef('p.taskId', '=', 't.id')).as('payment'))
    .where('t.id', '=', param<string>('id')),
);

// Null for an unknown task.
export async function taskWithPayment(db: SqlDb, id: string): Promise<(Task & { payment: Payment | null }) | null> {
  const [row] = (await taskWithPaymentStatement.run(db, { id })).rows;
  if (!row) return null;
  const { payment, ...task } = row;
  return { ...taskOf(task), payment: payment ? paymentFromJson(payment) : null };
}

// What an agent's answer on its callback URL needs of its task: the token to check it against, where the
// task is (for the move and its conditions), its agent and review window, and its payment, which finishing
// the task settles. Every callback reads it: one statement compiled once, with only these columns (the
// driver's cost of a row grows with its columns).
export type CallbackTask = Pick<Task, 'id' | 'status' | 'startedAt' | 'agentId' | 'tokenHash' | 'tokenNonce' | 'reviewWindowSeconds' | 'inputRounds'> & {
  payment: Payment | null;
};

const callbackTaskStatement = compiledStatement((db, param) =>
  db
    .selectFrom('tasks as t')
    .select(['t.id', 't.status', 't.startedAt', 't.agentId', 't.tokenHash', 't.tokenNonce', 't.reviewWindowSeconds', 't.inputRounds'])
    .select((eb) => jsonObjectFrom(eb.selectFrom('payments as p').selectAll('p').whereRef('p.taskId', '=', 't.id')).as('payment'))
    .where('t.id', '=', param<string>('id')),
);

// Null for an unknown task.
export async function callbackTask(db: SqlDb, id: string): Promise<CallbackTask | null> {
  const [row] = (await callbackTaskStatement.run(db, { id })).rows;
  if (!row) return null;
  return { ...row, payment: row.payment ? paymentFromJson(row.payment) : null };
}

/**
 * Takes the task's row lock (see lockTask in services/payments/moves.ts for the order) and removes a pending
 * job in the same statement. Null for an unknown task.
 */
export async function lockTask(db: SqlDb, taskId: string, removeJobKey: string | null): Promise<Pick<Task, 'status' | 'agentId' | 'startedAt'> | null> {
  const row = await db
    .selectFrom('tasks')
    .select(['status', 'agentId', 'startedAt'])
    .$if(removeJobKey !== null, (q) => q.select(sql<boolean>`graphile_worker.remove_job(${removeJobKey}::text) IS NOT NULL`.as('removed')))
    .where('id', '=', taskId)
    .forUpdate()
    .executeTakeFirst();
  return row ? { status: row.status, agentId: row.agentId, startedAt: row.startedAt } : null;
}

// A task that waited without an agent is given one; false when it was assigned or moved on meanwhile.
export async function assignAgent(db: SqlDb, taskId: string, agentId: string, routing: JsonSql, now: Date): Promise<boolean> {
  const { numUpdatedRows } = await db
    .updateTable('tasks')
    .set({ agentId, routingExplanation: routing, updatedAt: now })
    .where('id', '=', taskId)
    .where('status', '=', 'pending')
    .where('agentId', 'is', null)
    .executeTakeFirst();
  return numUpdatedRows > 0n;
}

// The task with its agent's owner (null without an agent): who may make an agent owner's move.
export async function taskWithAgentOwner(db: SqlDb, id: string): Promise<(Task & { agent: { ownerId: string } | null }) | null> {
  const row = await db
    .selectFrom('tasks as t')
    .leftJoin('agents as a', 'a.id', 't.agentId')
    .selectAll('t')
    .select('a.ownerId as agentOwnerId')
    .where('t.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const { agentOwnerId, ...task } = row;
  return { ...taskOf(task), agent: agentOwnerId === null ? null : { ownerId: agentOwnerId } };
}

// The task a requester made with this idempotency key, if any.
export async function taskOfIdempotencyKey(db: SqlDb, requesterId: string, key: string): Promise<Task | null> {
  const row = await db.selectFrom('tasks').selectAll().where('requesterId', '=', requesterId).where('idempotencyKey', '=', key).executeTakeFirst();
  return row ? taskOf(row) : null;
}

// The task gives its idempotency key up (expired, or its card declined).
export async function dropIdempotencyKey(db: SqlDb, taskId: string, key: string, now: Date): Promise<void> {
  await db.updateTable('tasks').set({ idempotencyKey: null, updatedAt: now }).where('id', '=', taskId).where('idempotencyKey', '=', key).execute();
}

// Why a task still waits for an agent, as of the last try; only while it still waits.
export async function recordWaitingRouting(db: SqlDb, taskId: string, routing: JsonSql, now: Date): Promise<void> {
  await db
    .updateTable('tasks')
    .set({ routingExplanation: routing, updatedAt: now })
    .where('id', '=', taskId)
    .where('status', '=', 'pending')
    .where('agentId', 'is', null)
    .execute();
}

// Tasks still waiting for an agent that have not expired, oldest first.
export async function waitingTaskIds(db: SqlDb, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('tasks')
    .select('id')
    .where('status', '=', 'pending')
    .where('agentId', 'is', null)
    .where('expiresAt', '>', now)
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

// Who made the task's latest move (its last history entry's actor).
export async function lastMoveActor(db: SqlDb, taskId: string): Promise<string | null> {
  const row = await db.selectFrom('taskHistory').select('actor').where('taskId', '=', taskId).orderBy('at', 'desc').limit(1).executeTakeFirst();
  return row?.actor ?? null;
}

// The requester's rating, once: false when the task was rated already.
export async function rateTaskOnce(db: SqlDb, taskId: string, rating: number, ratedAt: Date): Promise<boolean> {
  const result = await db.updateTable('tasks').set({ rating, ratedAt, updatedAt: ratedAt }).where('id', '=', taskId).where('rating', 'is', null).executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

// How many of the agent's tasks are in one of `statuses` (its unfinished ones, for the registry's delete).
export async function agentTaskCount(db: SqlDb, agentId: string, statuses: readonly TaskStatus[]): Promise<number> {
  const row = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('agentId', '=', agentId)
    .where('status', 'in', statuses)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// What a result upload checks its task token against, with the agent's owner (whose quota it counts to).
export async function taskTokenWithOwner(db: SqlDb, taskId: string) {
  return db
    .selectFrom('tasks as t')
    .innerJoin('agents as a', 'a.id', 't.agentId')
    .select(['t.tokenHash', 't.tokenNonce', 't.status', 'a.ownerId'])
    .where('t.id', '=', taskId)
    .executeTakeFirst();
}

// The open disputes for operators, contested first.
export async function openDisputes(db: SqlDb) {
  return db
    .selectFrom('tasks')
    .select(['id', 'title', 'requesterId', 'agentId', 'disputeReason', 'disputeStatement', 'disputeContestedAt', 'disputeAnswerBy'])
    .where('status', '=', 'disputed')
    .orderBy('disputeContestedAt', (ob) => ob.asc().nullsLast())
    .orderBy('id', 'asc')
    .limit(500)
    .execute();
}

// A page of the requester's tasks, or of the tasks of the owner's agents, each with its payment (which
// every REST answer shows), newest first (ids begin with their creation time), after the cursor's id when
// there is one; `limit + 1` rows tell whether more follow. Every list request reads it: one statement per
// shape (role, status filter, cursor), each compiled once.
export type TaskPageQuery = {
  role: 'requester' | 'agent';
  userId: string;
  status: TaskStatus | null;
  beforeId: string | null;
  take: number;
};

const taskPageStatementOf = (role: TaskPageQuery['role'], byStatus: boolean, afterId: boolean) =>
  compiledStatement((db, param) =>
    db
      .selectFrom('tasks as t')
      .selectAll('t')
      .select((eb) => jsonObjectFrom(eb.selectFrom('payments as p').selectAll('p').whereRef('p.taskId', '=', 't.id')).as('payment'))
      .$if(role === 'requester', (q) => q.where('t.requesterId', '=', param<string>('userId')))
      .$if(role === 'agent', (q) =>
        q.where((eb) => eb.exists(eb.selectFrom('agents as a').select('a.id').whereRef('a.id', '=', 't.agentId').where('a.ownerId', '=', param<string>('userId')))),
      )
      .$if(byStatus, (q) => q.where('t.status', '=', param<TaskStatus>('status')))
      .$if(afterId, (q) => q.where('t.id', '<', param<string>('beforeId')))
      .orderBy('t.id', 'desc')
      .limit(param<number>('take')),
  );

const taskPageStatements = new Map<string, ReturnType<typeof taskPageStatementOf>>();

export async function taskPage(db: SqlDb, p: TaskPageQuery): Promise<(Task & { payment: Payment | null })[]> {
  const shape = `${p.role} ${p.status !== null} ${p.beforeId !== null}`;
  let statement = taskPageStatements.get(shape);
  if (!statement) taskPageStatements.set(shape, (statement = taskPageStatementOf(p.role, p.status !== null, p.beforeId !== null)));
  const { rows } = await statement.run(db, p);
  return rows.map(({ payment, ...task }) => ({ ...taskOf(task), payment: payment ? paymentFromJson(payment) : null }));
}
