// The service CPU and time of one task move (status update with its history entry, in a transaction),
// written two ways on a scratch PostgreSQL database: Prisma's model calls (updateManyAndReturn and a
// create) and the store's one Kysely statement on Kysely's own pg pool (deps.sql, as the task path runs
// it). Says what the task path's transactions gained by leaving Prisma.
//   npx tsx bench/move-cost.ts [--moves 1000] [--postgres URL]
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import type { Sql } from '../src/db/kysely.js';
import { newId } from '../src/ids.js';
import { applyMove } from '../src/stores/task-store.js';
import { installJobSchema } from '../src/worker/worker.js';
import { createLogger } from '../src/logger.js';
import type { TaskStatus } from '../src/generated/prisma/client.js';

const { values: args } = parseArgs({
  options: {
    moves: { type: 'string', default: '1000' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});
const moves = Number(args.moves);
const scratch = `bench_moves_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: args.postgres });
await admin.connect();
await admin.query(`CREATE DATABASE ${scratch}`);
try {
  const url = new URL(args.postgres!);
  url.pathname = `/${scratch}`;
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: '/nonexistent', mode: 'own', preparedStatements: true, poolSize: 2 });
  const { prisma, sql } = db;
  // The move's statement names graphile-worker's functions (the expiry job's removal).
  await installJobSchema(url.toString(), createLogger('warn'));
  const user = await prisma.user.create({ data: { id: newId('usr'), email: `${scratch}@example.com` } });
  const taskId = newId('tsk');
  await prisma.task.create({ data: { id: taskId, requesterId: user.id, title: 't', description: 'd', status: 'in_progress', expiresAt: new Date(Date.now() + 3_600_000) } });
  // Back and forth between two states, so every move applies.
  let at: TaskStatus = 'in_progress';
  const next = (): [TaskStatus, TaskStatus] => {
    const from = at;
    at = from === 'in_progress' ? 'input_required' : 'in_progress';
    return [from, at];
  };
  const storeMove = (k: Sql) => {
    const [from, to] = next();
    const now = new Date();
    return applyMove(k, {
      taskId, action: 'bench', from, to, now, changes: {},
      history: { id: newId('evt'), actor: 'system', actorId: null, note: null, data: undefined },
      notify: null, removeJobKey: null,
    });
  };
  const kinds: Record<string, () => Promise<unknown>> = {
    'Prisma model calls': () =>
      prisma.$transaction(async (tx) => {
        const [from, to] = next();
        const now = new Date();
        const [task] = await tx.task.updateManyAndReturn({ where: { id: taskId, status: from }, data: { status: to, updatedAt: now } });
        await tx.taskHistoryEntry.create({ data: { id: newId('evt'), taskId, at: now, actor: 'system', action: 'bench', fromStatus: from, toStatus: to }, select: { id: true } });
        return task;
      }),
    'Kysely on pg (deps.sql)': () => sql.transaction().execute((tx) => storeMove(tx)),
  };
  for (const [name, call] of Object.entries(kinds)) {
    for (let i = 0; i < 200; i++) await call();
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < moves; i++) await call();
    const used = process.cpuUsage(cpu);
    console.log(`${name.padEnd(24)} ${((used.user + used.system) / moves / 1000).toFixed(3)} ms CPU per move, ${((performance.now() - started) / moves).toFixed(3)} ms wall`);
  }
  await db.close();
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
  await admin.end();
}
