// The service CPU one Prisma call costs, by kind: a model read, the same read as $queryRaw, and the bare
// pg driver under it, on a scratch PostgreSQL database. Tells whether turning a hot path's model call
// into a raw statement pays (issue 25: Prisma's runtime is about half of the service's busy time).
//   npx tsx bench/prisma-call-cost.ts [--calls 2000] [--postgres URL]
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { newId } from '../src/ids.js';

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '2000' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});
const calls = Number(args.calls);
const scratch = `bench_calls_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: args.postgres });
await admin.connect();
await admin.query(`CREATE DATABASE ${scratch}`);
try {
  const url = new URL(args.postgres!);
  url.pathname = `/${scratch}`;
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: '/nonexistent', mode: 'own', preparedStatements: true, poolSize: 2 });
  const prisma = db.prisma;
  const user = await prisma.user.create({ data: { id: newId('usr'), email: `${scratch}@example.com` } });
  const direct = new pg.Pool({ connectionString: url.toString(), max: 2 });
  const kinds: Record<string, () => Promise<unknown>> = {
    'model findUnique': () => prisma.user.findUnique({ where: { id: user.id } }),
    '$queryRaw': () => prisma.$queryRaw`SELECT id, email, created_at AS "createdAt" FROM users WHERE id = ${user.id}`,
    'pg driver': () => direct.query({ name: 'u', text: 'SELECT id, email, created_at AS "createdAt" FROM users WHERE id = $1', values: [user.id] }),
  };
  for (const [name, call] of Object.entries(kinds)) {
    for (let i = 0; i < 200; i++) await call();
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < calls; i++) await call();
    const used = process.cpuUsage(cpu);
    console.log(`${name.padEnd(18)} ${(((used.user + used.system) / calls) / 1000).toFixed(3)} ms CPU per call, ${((performance.now() - started) / calls).toFixed(3)} ms wall`);
  }
  await direct.end();
  await db.close();
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
  await admin.end();
}
