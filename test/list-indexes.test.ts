// The list queries have indexes of their own: on a realistic spread of rows (20 000 tasks of 1 000
// requesters and 100 agents), the plans PostgreSQL picks read the index made for each query.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createPrismaClient } from '../src/db/client.js';

let db: TestDatabase;
let prisma: ReturnType<typeof createPrismaClient>;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrismaClient(db.url, 2);
  await prisma.$executeRawUnsafe(`INSERT INTO users (id, email, updated_at) SELECT 'usr_' || g, 'u' || g || '@example.com', now() FROM generate_series(1, 1000) g`);
  await prisma.$executeRawUnsafe(
    `INSERT INTO agents (id, owner_id, name, slug, endpoint, updated_at) SELECT 'agt_' || g, 'usr_' || (g % 50 + 1), 'A' || g, 'a-' || g, 'https://a.example/x', now() FROM generate_series(1, 100) g`,
  );
  await prisma.$executeRawUnsafe(
    `INSERT INTO tasks (id, requester_id, agent_id, title, description, expires_at, updated_at, status)
     SELECT 'tsk_' || lpad(g::text, 8, '0'), 'usr_' || (g % 1000 + 1), 'agt_' || (g % 100 + 1), 't', 'd', now(), now(), 'completed'
     FROM generate_series(1, 20000) g`,
  );
  await prisma.$executeRawUnsafe(
    `INSERT INTO deliveries (id, task_id, agent_id, updated_at) SELECT 'dlv_' || lpad(g::text, 8, '0'), 'tsk_' || lpad(g::text, 8, '0'), 'agt_' || (g % 100 + 1), now() FROM generate_series(1, 20000) g`,
  );
  await prisma.$executeRawUnsafe(
    `INSERT INTO credit_ledger (id, user_id, agent_id, kind, delta, task_id) SELECT 'cle_' || g, 'usr_' || (g % 50 + 1), 'agt_' || (g % 100 + 1), 'use', -1, 'tsk_' || lpad(g::text, 8, '0') FROM generate_series(1, 20000) g`,
  );
  await prisma.$executeRawUnsafe('ANALYZE');
});
afterAll(async () => {
  await prisma?.$disconnect();
  await db?.close();
});

async function plan(sql: string): Promise<string> {
  const rows = await prisma.$queryRawUnsafe<Array<{ 'QUERY PLAN': string }>>(`EXPLAIN ${sql}`);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

it("a requester's tasks, newest first, page by page", async () => {
  const text = await plan(`SELECT * FROM tasks WHERE requester_id = 'usr_7' AND id < 'tsk_00015000' ORDER BY id DESC LIMIT 21`);
  expect(text).toContain('tasks_requester_id_id_idx');
});

it("an agent's tasks, newest first", async () => {
  const text = await plan(`SELECT * FROM tasks WHERE agent_id = 'agt_7' ORDER BY id DESC LIMIT 21`);
  expect(text).toContain('tasks_agent_id_id_idx');
});

it("an agent's delivery log, newest first", async () => {
  const text = await plan(`SELECT * FROM deliveries WHERE agent_id = 'agt_7' ORDER BY id DESC LIMIT 20`);
  expect(text).toContain('deliveries_agent_id_id_idx');
});

it("a task's credit use, when the credit is given back", async () => {
  const text = await plan(`SELECT * FROM credit_ledger WHERE task_id = 'tsk_00000042' AND kind = 'use' LIMIT 1`);
  expect(text).toContain('credit_ledger_task_id_idx');
});
