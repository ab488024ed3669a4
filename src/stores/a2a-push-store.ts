// The a2a_push_configs table: where an A2A client wants its tasks pushed, and how far each push got.
// Rules: a2a/pushes.ts.
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import type { A2APushConfig } from '../generated/kysely/types.js';

export type PushConfigRow = Selectable<A2APushConfig>;

export interface PushTarget {
  url: string;
  tokenEnc: string | null;
  authScheme: string | null;
  credentialsEnc: string | null;
}

type ConfigKey = { taskId: string; userId: string; configId: string };

// How many configurations the user has on the task besides `configId`.
export async function otherConfigCount(db: SqlDb, k: ConfigKey): Promise<number> {
  const row = await db
    .selectFrom('a2aPushConfigs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('taskId', '=', k.taskId)
    .where('userId', '=', k.userId)
    .where('configId', '<>', k.configId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// Creates the configuration or replaces its target (pushing starts over). The caller enqueues the look
// at the task with the row's id (an existing configuration keeps its own).
export async function saveConfig(db: SqlDb, k: ConfigKey & { id: string }, target: PushTarget): Promise<PushConfigRow> {
  return db
    .insertInto('a2aPushConfigs')
    .values({ ...k, ...target })
    .onConflict((oc) => oc.columns(['taskId', 'userId', 'configId']).doUpdateSet({ ...target, lastPushed: null, idleRounds: 0 }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function configOf(db: SqlDb, k: ConfigKey): Promise<PushConfigRow | undefined> {
  return db.selectFrom('a2aPushConfigs').selectAll().where('taskId', '=', k.taskId).where('userId', '=', k.userId).where('configId', '=', k.configId).executeTakeFirst();
}

export async function configsOf(db: SqlDb, taskId: string, userId: string): Promise<PushConfigRow[]> {
  return db.selectFrom('a2aPushConfigs').selectAll().where('taskId', '=', taskId).where('userId', '=', userId).orderBy('createdAt', 'asc').execute();
}

export async function deleteConfig(db: SqlDb, k: ConfigKey): Promise<boolean> {
  const result = await db
    .deleteFrom('a2aPushConfigs')
    .where('taskId', '=', k.taskId)
    .where('userId', '=', k.userId)
    .where('configId', '=', k.configId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function configById(db: SqlDb, id: string): Promise<PushConfigRow | undefined> {
  return db.selectFrom('a2aPushConfigs').selectAll().where('id', '=', id).executeTakeFirst();
}

// What the last look found (`status@updatedAt`), and how many looks in a row found nothing new; with the
// next look's job when there is one, in the same statement.
export async function recordLook(db: SqlDb, id: string, look: { lastPushed: string; idleRounds?: number }, job: RawBuilder<unknown> | null): Promise<void> {
  const update = db.updateTable('a2aPushConfigs').set(look).where('id', '=', id);
  if (!job) {
    await update.execute();
    return;
  }
  await db
    .with('c', () => update.returning('id'))
    .selectFrom('c')
    .select(sql<string>`(${job}).id::text`.as('job'))
    .execute();
}
