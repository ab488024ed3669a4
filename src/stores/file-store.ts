// The SQL of the files aggregate (tables files and task_files), in Kysely. Rules live in
// services/files/; this module only reads and writes rows.
import { sql } from 'kysely';
import type { Sql, SqlDb } from '../db/kysely.js';
import { TERMINAL } from '../lifecycle/task-lifecycle.js';

export interface FileRow {
  id: string;
  ownerId: string;
  taskId: string | null;
  filename: string;
  mediaType: string;
  size: number;
  sha256: string | null;
  status: string;
  storageKey: string;
  createdAt: Date;
}

export type FileRole = 'input' | 'result';

const columns = ['id', 'ownerId', 'taskId', 'filename', 'mediaType', 'size', 'sha256', 'status', 'storageKey', 'createdAt'] as const;

// BIGINT arrives as a string; sizes stay far below 2^53.
const rowOf = (row: Omit<FileRow, 'size'> & { size: string | number | bigint }): FileRow => ({ ...row, size: Number(row.size) });

// The reads and the link that take part in a task's transaction take it as `on` (its Kysely
// transaction); the rest run on the store's own connection.
export function fileStore(db: Sql) {
  return {
    // Serialises the quota checks of one owner's uploads (held to the end of the transaction `on`), so
    // uploads at once cannot each see the same bytes in use and together pass the quota.
    async lockOwner(ownerId: string, on: SqlDb): Promise<void> {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`file-quota:${ownerId}`}))`.execute(on);
    },

    // Written before the bytes, so every blob has a row that knows it (the sweep removes unfinished ones).
    // `reserved`: the bytes the upload said it brings, held in the quota until it is stored. False when
    // the upload link has its file already, or the artifact part is kept already (unique keys): nothing
    // is written then.
    async insertUploading(
      row: Pick<FileRow, 'id' | 'ownerId' | 'taskId' | 'filename' | 'mediaType' | 'storageKey' | 'createdAt'> & { uploadLinkId?: string | null; artifactPart?: string | null },
      reserved: number,
      on: SqlDb = db,
    ): Promise<boolean> {
      const inserted = await on
        .insertInto('files')
        .values({ ...row, status: 'uploading', size: String(reserved) })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    // The file kept from an artifact part of a task, if one is (stored or on its way in).
    async byArtifactPart(taskId: string, artifactPart: string, on: SqlDb = db): Promise<FileRow | null> {
      const row = await on.selectFrom('files').select(columns).where('taskId', '=', taskId).where('artifactPart', '=', artifactPart).executeTakeFirst();
      return row ? rowOf(row) : null;
    },

    async markStored(id: string, done: { size: number; sha256: string; storedAt: Date }, on: SqlDb = db): Promise<FileRow | null> {
      const row = await on
        .updateTable('files')
        .set({ status: 'stored', size: String(done.size), sha256: done.sha256, storedAt: done.storedAt })
        .where('id', '=', id)
        .where('status', '=', 'uploading')
        .returning(columns)
        .executeTakeFirst();
      return row ? rowOf(row) : null;
    },

    async remove(id: string): Promise<void> {
      await db.deleteFrom('files').where('id', '=', id).execute();
    },

    async byId(id: string): Promise<FileRow | null> {
      const row = await db.selectFrom('files').select(columns).where('id', '=', id).executeTakeFirst();
      return row ? rowOf(row) : null;
    },

    async byIds(ids: readonly string[], on: SqlDb = db): Promise<FileRow[]> {
      if (ids.length === 0) return [];
      const rows = await on.selectFrom('files').select(columns).where('id', 'in', [...ids]).execute();
      return rows.map(rowOf);
    },

    // Bytes a user holds, stored or reserved by uploads on their way in; `except` one file (the upload
    // being finished).
    async usedBytes(ownerId: string, on: SqlDb = db, except?: string): Promise<number> {
      let query = on.selectFrom('files').select(sql<string>`coalesce(sum(size), 0)`.as('used')).where('ownerId', '=', ownerId);
      if (except) query = query.where('id', '<>', except);
      const row = await query.executeTakeFirstOrThrow();
      return Number(row.used);
    },

    // Whether `userId` is the requester of a task using the file or the owner of its agent.
    async isPartyOfTaskUsing(fileId: string, userId: string): Promise<boolean> {
      const row = await db
        .selectFrom('taskFiles as tf')
        .innerJoin('tasks as t', 't.id', 'tf.taskId')
        .leftJoin('agents as a', 'a.id', 't.agentId')
        .select('tf.taskId')
        .where('tf.fileId', '=', fileId)
        .where((eb) => eb.or([eb('t.requesterId', '=', userId), eb('a.ownerId', '=', userId)]))
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async filesOfTask(taskId: string, on: SqlDb = db): Promise<Array<FileRow & { role: FileRole }>> {
      const rows = await on
        .selectFrom('taskFiles as tf')
        .innerJoin('files as f', 'f.id', 'tf.fileId')
        .select(['f.id', 'f.ownerId', 'f.taskId', 'f.filename', 'f.mediaType', 'f.size', 'f.sha256', 'f.status', 'f.storageKey', 'f.createdAt', 'tf.role'])
        .where('tf.taskId', '=', taskId)
        .orderBy('f.id')
        .execute();
      return rows.map((row) => ({ ...rowOf(row), role: row.role as FileRole }));
    },

    // Records which files a task uses, in the transaction that writes the task or its result.
    async link(taskId: string, role: FileRole, fileIds: readonly string[], on: SqlDb = db): Promise<void> {
      await on
        .insertInto('taskFiles')
        .values(fileIds.map((fileId) => ({ taskId, fileId, role })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    },

    // Uploads begun before `before` that never finished (the process died, or the client left and the
    // clean-up failed).
    async unfinished(before: Date, limit: number): Promise<FileRow[]> {
      const rows = await db.selectFrom('files').select(columns).where('status', '=', 'uploading').where('createdAt', '<', before).limit(limit).execute();
      return rows.map(rowOf);
    },

    // Files whose tasks all finished before `before`: each used by a task (or uploaded for one), and no
    // task using it still open or finished since.
    async retired(before: Date, limit: number): Promise<FileRow[]> {
      const rows = await db
        .selectFrom('files as f')
        .select(columns.map((c) => `f.${c}` as const))
        .where('f.status', '=', 'stored')
        .where((eb) =>
          eb.or([
            eb.exists(eb.selectFrom('taskFiles as tf').select('tf.taskId').whereRef('tf.fileId', '=', 'f.id')),
            eb('f.taskId', 'is not', null),
          ]),
        )
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('tasks as t')
                .select('t.id')
                .where((inner) =>
                  inner.or([
                    inner('t.id', '=', inner.ref('f.taskId')),
                    inner('t.id', 'in', inner.selectFrom('taskFiles as tf2').select('tf2.taskId').whereRef('tf2.fileId', '=', 'f.id')),
                  ]),
                )
                .where((inner) => inner.or([inner('t.status', 'not in', [...TERMINAL]), inner('t.finishedAt', 'is', null), inner('t.finishedAt', '>=', before)])),
            ),
          ),
        )
        .limit(limit)
        .execute();
      return rows.map(rowOf);
    },

    async storedKeys(keys: readonly string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const rows = await db.selectFrom('files').select('storageKey').where('storageKey', 'in', [...keys]).execute();
      return new Set(rows.map((r) => r.storageKey));
    },
  };
}

export type FileStore = ReturnType<typeof fileStore>;
export type { SqlDb };
