// The agents table's SQL: the registry's writes (services/agents.ts) and the reads the task path needs
// (who owns an agent, where its owner hears of events), and the endpoint's delivery state. Reputation's
// figures and health evidence are stores/reputation-store.ts and stores/agent-health-store.ts.
import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { DB, SqlDb } from '../db/kysely.js';
import { shapedStatement } from '../db/shaped-statement.js';
import type { Agent, AgentStatus } from '../generated/kysely/types.js';
import type { Agent as PrismaAgent, TaskStatus } from '../generated/prisma/client.js';
import { jsonOf, type JsonSql } from './json.js';

export async function ownerOfAgent(db: SqlDb, agentId: string): Promise<string | null> {
  const row = await db.selectFrom('agents').select('ownerId').where('id', '=', agentId).executeTakeFirst();
  return row?.ownerId ?? null;
}

// The agent's owner and the URL their operational events go to (null: none set).
export async function ownerWithNotificationUrl(db: SqlDb, agentId: string): Promise<{ ownerId: string; notificationUrl: string | null } | null> {
  const row = await db
    .selectFrom('agents as a')
    .innerJoin('users as u', 'u.id', 'a.ownerId')
    .select(['a.ownerId', 'u.notificationUrl'])
    .where('a.id', '=', agentId)
    .executeTakeFirst();
  return row ?? null;
}

export async function ratingOfAgent(db: SqlDb, agentId: string): Promise<{ ratingSum: number; ratingCount: number } | null> {
  return (await db.selectFrom('agents').select(['ratingSum', 'ratingCount']).where('id', '=', agentId).executeTakeFirst()) ?? null;
}

// An administrator's verification; updatedAt is the owner's last edit and stays. False for an unknown agent.
export async function setAgentVerified(db: SqlDb, agentId: string, verified: boolean, now: Date): Promise<boolean> {
  const result = await db.updateTable('agents').set({ verified, verifiedAt: verified ? now : null }).where('id', '=', agentId).executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

// An agent row as the services know it (Prisma's Agent): the table's type with its card read as JSON.
export type AgentRow = PrismaAgent;
const agentOf = ({ a2aCard, ...row }: Selectable<Agent>): AgentRow => ({ ...row, a2aCard: jsonOf(a2aCard) });

// What an owner (or an imported card) sets on an agent; the card itself is JSON.
export type AgentFields = Omit<Updateable<Agent>, 'id' | 'ownerId' | 'slug' | 'a2aCard' | 'createdAt' | 'updatedAt'> & { a2aCard?: JsonSql };

export async function agentById(db: SqlDb, id: string): Promise<AgentRow | null> {
  const row = await db.selectFrom('agents').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? agentOf(row) : null;
}

// Writers of the same slug base take turns until their transaction ends (services/agents.ts freeSlug).
export async function lockSlugBase(db: SqlDb, base: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`agent-slug:${base}`}))`.execute(db);
}

// The slugs starting with `base` that agents other than `exceptId` hold now or held before.
export async function slugsTaken(db: SqlDb, base: string, exceptId?: string): Promise<string[]> {
  const prefix = `${base.replace(/[\\%_]/g, '\\$&')}%`;
  const rows = await db
    .selectFrom('agents')
    .select('slug')
    .where('slug', 'like', prefix)
    .$if(exceptId !== undefined, (q) => q.where('id', '<>', exceptId!))
    .union((eb) =>
      eb
        .selectFrom('agentPreviousSlugs')
        .select('slug')
        .where('slug', 'like', prefix)
        .$if(exceptId !== undefined, (q) => q.where('agentId', '<>', exceptId!)),
    )
    .execute();
  return rows.map((r) => r.slug);
}

export async function insertAgent(db: SqlDb, agent: AgentFields & { id: string; ownerId: string; name: string; endpoint: string; slug: string }, now: Date): Promise<void> {
  await db.insertInto('agents').values({ ...agent, createdAt: now, updatedAt: now }).execute();
}

export async function updateAgent(db: SqlDb, id: string, fields: AgentFields & { slug?: string }, now: Date): Promise<void> {
  await db.updateTable('agents').set({ ...fields, updatedAt: now }).where('id', '=', id).execute();
}

// The old slug keeps leading to the agent; a slug it had before and takes back is current again.
export async function moveSlug(db: SqlDb, agentId: string, from: string, to: string): Promise<void> {
  await db.insertInto('agentPreviousSlugs').values({ slug: from, agentId }).onConflict((oc) => oc.column('slug').doNothing()).execute();
  await db.deleteFrom('agentPreviousSlugs').where('slug', '=', to).where('agentId', '=', agentId).execute();
}

// The agent's row, locked until the transaction ends (a credit purchase for it waits meanwhile).
export async function lockAgent(db: SqlDb, id: string): Promise<void> {
  await db.selectFrom('agents').select('id').where('id', '=', id).forUpdate().execute();
}

export async function deleteAgent(db: SqlDb, id: string): Promise<void> {
  await db.deleteFrom('agents').where('id', '=', id).execute();
}

export interface WebhookSecrets {
  webhookSecretEnc: string | null;
  previousWebhookSecretEnc: string | null;
  previousWebhookSecretExpiresAt: Date | null;
}

// The owner's edit: updatedAt moves.
export async function setWebhookSecrets(db: SqlDb, id: string, secrets: WebhookSecrets, now: Date): Promise<void> {
  await db.updateTable('agents').set({ ...secrets, updatedAt: now }).where('id', '=', id).execute();
}

// The endpoint's delivery state (services/endpoint-health.ts says when it changes). These writes leave
// updatedAt alone: that is the owner's last edit, which discovery sorts by.

// The endpoint columns a delivered attempt reads.
export type EndpointFigures = Pick<AgentRow, 'deliveryState' | 'endpointFailStreak'>;

type Comparison = '=' | '<>' | '>';
type Condition = { [C in keyof EndpointFigures]: readonly [C, Comparison, EndpointFigures[C]] }[keyof EndpointFigures];
// A rule on the endpoint's columns as its service states it (services/endpoint-health.ts): groups of
// conditions, which holds when every group has a condition that holds.
export type EndpointRule = ReadonlyArray<readonly Condition[]>;

const compare = <T extends string | number>(value: T, op: Comparison, to: T): boolean => (op === '=' ? value === to : op === '<>' ? value !== to : value > to);
const holds = (a: EndpointFigures, c: Condition): boolean => (c[0] === 'deliveryState' ? compare(a.deliveryState, c[1], c[2]) : compare(a.endpointFailStreak, c[1], c[2]));

// Both forms of an EndpointRule, made from its one description.
export const endpointRuleForms = {
  // On a row read before.
  row: (rule: EndpointRule, a: EndpointFigures): boolean => rule.every((group) => group.some((c) => holds(a, c))),
  // On the row as it is when a statement runs (both columns are NOT NULL, so it is never NULL).
  sql: (rule: EndpointRule) => (eb: ExpressionBuilder<DB, 'agents'>) =>
    eb.and(rule.map((group) => eb.or(group.map(([column, op, value]) => eb(eb.ref(`agents.${column}`), op, value))))),
};

// The endpoint active again with no streak of failures, when the row meets `changes` (the rule for a
// delivered attempt).
export async function markEndpointDelivered(db: SqlDb, agentId: string, changes: EndpointRule): Promise<void> {
  await db
    .updateTable('agents')
    .set({ deliveryState: 'active', endpointFailStreak: 0, endpointFailingSince: null })
    .where('id', '=', agentId)
    .where(endpointRuleForms.sql(changes))
    .execute();
}

// One more failure in the streak; the update locks the agent's row until the transaction ends, so
// concurrent attempts count one by one. Undefined for an unknown agent.
export async function countEndpointFailure(db: SqlDb, agentId: string) {
  return db
    .updateTable('agents')
    .set((eb) => ({ endpointFailStreak: eb('endpointFailStreak', '+', 1) }))
    .where('id', '=', agentId)
    .returning(['deliveryState', 'endpointFailStreak', 'endpointFailingSince'])
    .executeTakeFirst();
}

export async function markEndpointFailing(db: SqlDb, agentId: string, now: Date): Promise<void> {
  await db.updateTable('agents').set({ deliveryState: 'failing', endpointFailingSince: now }).where('id', '=', agentId).execute();
}

export async function disableEndpoint(db: SqlDb, agentId: string, now: Date): Promise<void> {
  await db.updateTable('agents').set({ deliveryState: 'disabled', endpointDisabledAt: now }).where('id', '=', agentId).execute();
}

// A test ping answered 2xx at `now`.
export async function recordPingOk(db: SqlDb, agentId: string, now: Date): Promise<void> {
  await db.updateTable('agents').set({ endpointPingOkAt: now }).where('id', '=', agentId).execute();
}

// A disabled endpoint active again with a fresh streak; false when it was no longer disabled.
export async function enableEndpoint(db: SqlDb, agentId: string): Promise<boolean> {
  const result = await db
    .updateTable('agents')
    .set({ deliveryState: 'active', endpointFailStreak: 0, endpointFailingSince: null, endpointDisabledAt: null })
    .where('id', '=', agentId)
    .where('deliveryState', '=', 'disabled')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

// The agent's delivery rate and its current window, locked until the transaction ends (delivery/throttle.ts).
export async function lockDeliveryWindow(db: SqlDb, agentId: string) {
  return db
    .selectFrom('agents')
    .select(['maxDeliveriesPerSecond as rate', 'deliveryWindowStart as start', 'deliveryWindowCount as count'])
    .where('id', '=', agentId)
    .forUpdate()
    .executeTakeFirst();
}

// A new window from `now` with its first attempt.
export async function openDeliveryWindow(db: SqlDb, agentId: string, now: Date): Promise<void> {
  await db.updateTable('agents').set({ deliveryWindowStart: now, deliveryWindowCount: 1 }).where('id', '=', agentId).execute();
}

// One more attempt in the current window.
export async function countInDeliveryWindow(db: SqlDb, agentId: string): Promise<void> {
  await db
    .updateTable('agents')
    .set((eb) => ({ deliveryWindowCount: eb('deliveryWindowCount', '+', 1) }))
    .where('id', '=', agentId)
    .execute();
}

// The agents of `ids`, in no particular order (an id no longer there is left out).
export async function agentsByIds(db: SqlDb, ids: readonly string[]): Promise<AgentRow[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('agents').selectAll().where('id', 'in', ids).execute()).map(agentOf);
}

// The agent a slug leads to: its current slug, else one it had before a rename.
export async function agentBySlug(db: SqlDb, slug: string): Promise<AgentRow | null> {
  const current = await db.selectFrom('agents').selectAll().where('slug', '=', slug).executeTakeFirst();
  if (current) return agentOf(current);
  const previous = await db
    .selectFrom('agentPreviousSlugs as p')
    .innerJoin('agents as a', 'a.id', 'p.agentId')
    .selectAll('a')
    .where('p.slug', '=', slug)
    .executeTakeFirst();
  return previous ? agentOf(previous) : null;
}

// A batch of agents in id order after `afterId` (a keyset walk over the whole table).
export async function agentsAfter(db: SqlDb, afterId: string | undefined, take: number): Promise<AgentRow[]> {
  const rows = await db
    .selectFrom('agents')
    .selectAll()
    .$if(afterId !== undefined, (q) => q.where('id', '>', afterId!))
    .orderBy('id', 'asc')
    .limit(take)
    .execute();
  return rows.map(agentOf);
}

// The capabilities, protocols and categories most used by agents of a status, each with how many agents
// have it: at most `shown` of each kind. One statement; the registry's arrays are short.
export async function filterCounts(db: SqlDb, status: AgentStatus, shown: number) {
  const { rows } = await sql<{ kind: 'capabilities' | 'protocols' | 'categories'; value: string; count: string }>`
    SELECT kind, value, count FROM (
      SELECT kind, value, count(*) AS count, row_number() OVER (PARTITION BY kind ORDER BY count(*) DESC, value) AS place
      FROM (
        SELECT 'capabilities' AS kind, unnest(capabilities) AS value FROM agents WHERE status = ${status}::"AgentStatus"
        UNION ALL SELECT 'protocols', unnest(protocols) FROM agents WHERE status = ${status}::"AgentStatus"
        UNION ALL SELECT 'categories', unnest(categories) FROM agents WHERE status = ${status}::"AgentStatus"
      ) used
      GROUP BY kind, value
    ) ranked
    WHERE place <= ${shown}
    ORDER BY kind, place`.execute(db);
  return rows.map((r) => ({ kind: r.kind, value: r.value, count: Number(r.count) }));
}

// A condition one column of an agent must meet: routing's eligibility rules (services/routing.ts) as data,
// from which both the read's filter here and the reasons routing gives for an agent it read are made.
export type ColumnCondition<V> =
  | { equals: V }
  | { not: V }
  | { in: readonly V[] }
  | { atMost: number; orNull?: boolean }
  | { atLeast: number };
export type AgentConditions = { [K in keyof AgentRow]?: ColumnCondition<AgentRow[K]> };

export interface AgentPoolQuery {
  // The agents offering every one of these capabilities and protocols.
  capabilities: string[];
  protocols: string[];
  // Those meeting every condition (`eligible` true), or missing one (false); all of them without.
  conditions?: AgentConditions;
  eligible?: boolean;
  // The statuses of an agent's tasks in flight, which it is read with, and how many of them are counted
  // at most: this many, or the agent's maxConcurrentTasks where that is more (so a full agent reads as full).
  inFlightStatuses: readonly TaskStatus[];
  inFlightUpTo: number;
  take: number;
}

// What routing reads of an agent to judge, rank and pay it (services/routing.ts): the columns of its
// eligibility rules and score terms, its inputSchema, and who is paid. Every create reads the pool, and the
// driver's cost of a row grows with its columns, so the pool holds these rather than the whole row.
export const ROUTING_COLUMNS = [
  'id',
  'ownerId',
  'status',
  'healthStatus',
  'deliveryState',
  'priceCents',
  'trustTier',
  'trustScore',
  'recentSuccessRate',
  'verified',
  'p95CompletionMs',
  'capabilities',
  'ratingSum',
  'ratingCount',
  'completedCount',
  'failedCount',
  'maxConcurrentTasks',
  'createdAt',
  'inputSchema',
] as const satisfies readonly (keyof AgentRow)[];
export type RoutingAgentRow = Pick<AgentRow, (typeof ROUTING_COLUMNS)[number]>;

export type AgentWithLoad = RoutingAgentRow & { inFlight: number };

function conditionSql(eb: ExpressionBuilder<DB, 'agents'>, column: keyof AgentRow, c: ColumnCondition<unknown>): Expression<SqlBool> {
  const ref = eb.ref(column as 'id');
  if ('equals' in c) return eb(ref, '=', c.equals as string);
  if ('not' in c) return eb(ref, '<>', c.not as string);
  if ('in' in c) return eb(ref, 'in', c.in as string[]);
  if ('atLeast' in c) return eb(ref, '>=', c.atLeast as never);
  const bounded = eb(ref, '<=', c.atMost as never);
  return c.orNull ? eb.or([eb(ref, 'is', null), bounded]) : bounded;
}

// One statement, compiled once per shape of the query (which conditions, how many capabilities).
const agentPoolStatement = shapedStatement((db, q: AgentPoolQuery) =>
  db
    .selectFrom('agents')
    .select(ROUTING_COLUMNS.map((column) => `agents.${column}` as const))
    // Counted up to a bound, so that a busy agent's thousands of tasks in flight are not scanned on every create.
    .select((eb) =>
      eb
        .selectFrom(
          eb
            .selectFrom('tasks')
            .select(sql<number>`1`.as('one'))
            .whereRef('tasks.agentId', '=', 'agents.id')
            .where('tasks.status', 'in', [...q.inFlightStatuses])
            .limit(sql<number>`greatest(${eb.ref('agents.maxConcurrentTasks')}, ${q.inFlightUpTo})`)
            .as('counted'),
        )
        .select(sql<number>`count(*)::int`.as('n'))
        .as('inFlight'),
    )
    .$if(q.capabilities.length > 0, (s) => s.where(sql<boolean>`agents.capabilities @> ${q.capabilities}::text[]`))
    .$if(q.protocols.length > 0, (s) => s.where(sql<boolean>`agents.protocols @> ${q.protocols}::text[]`))
    .$if(q.conditions !== undefined, (s) =>
      s.where((eb) => {
        const all = eb.and(Object.entries(q.conditions!).map(([column, c]) => conditionSql(eb, column as keyof AgentRow, c as ColumnCondition<unknown>)));
        return q.eligible === false ? eb.not(all) : all;
      }),
    )
    .orderBy('agents.trustScore', 'desc')
    .orderBy('agents.createdAt', 'asc')
    .orderBy('agents.id', 'asc')
    .limit(q.take),
);

// Routing's pool: the agents offering what a task needs, best trust first, each with its tasks in flight
// (routing's columns of each, see ROUTING_COLUMNS).
export async function agentPool(db: SqlDb, q: AgentPoolQuery): Promise<AgentWithLoad[]> {
  const { rows } = await agentPoolStatement.run(db, q);
  return rows.map((row) => ({ ...row, inFlight: row.inFlight ?? 0 }));
}
