// Prepared statements are named for what they do (src/db/statement-names.ts), so the server's log and
// pg_prepared_statements read without a lookup table.
import { describe, expect, it } from 'vitest';
import { describeStatement, statementNamer } from '../../src/db/statement-names.js';

describe('statement names', () => {
  it('say the aggregate and the act', () => {
    expect(describeStatement('insert into "tasks" ("id", "title") values ($1, $2) returning *')).toBe('task.create');
    expect(describeStatement('update "agents" set "trust_score" = $1 where "id" = $2')).toBe('agent.update');
    expect(describeStatement('delete from "deliveries" where "id" = $1')).toBe('delivery.delete');
    expect(describeStatement('select "id" from "agents" where "slug" = $1')).toBe('agent.read');
    expect(describeStatement('SELECT "public"."agents"."id" FROM "public"."agents" WHERE "public"."agents"."id" = $1')).toBe('agent.read');
    // A WITH that changes a table is that change; graphile-worker's add_job is a job added.
    expect(describeStatement('with "r" as (select "deliveries"."type" from "deliveries"), "c" as (update "deliveries" set "attempt_count" = 1) select * from "r"')).toBe(
      'delivery.update',
    );
    expect(describeStatement('select graphile_worker.add_job($1, $2)')).toBe('job.add');
    expect(describeStatement('UPDATE graphile_worker._private_jobs SET run_at = $1')).toBe('job.update');
    expect(describeStatement('begin')).toBe('begin');
  });

  it('take a name a statement gives itself', () => {
    expect(describeStatement('/* delivery.claim */ update "deliveries" set "attempt_job_id" = $1')).toBe('delivery.claim');
  });

  it('differ for different texts of the same act, agree for the same text, and fit PostgreSQL’s 63 bytes', () => {
    const name = statementNamer();
    const a = name({ sql: 'update "tasks" set "status" = $1 where "id" = $2' });
    const b = name({ sql: 'update "tasks" set "rating" = $1 where "id" = $2' });
    expect(a).toMatch(/^task\.update\.[\w-]{8}$/);
    expect(b).toMatch(/^task\.update\.[\w-]{8}$/);
    expect(a).not.toBe(b);
    expect(statementNamer()({ sql: 'update "tasks" set "status" = $1 where "id" = $2' })).toBe(a);
    expect(Buffer.byteLength(name({ sql: `update "${'x'.repeat(80)}" set a = 1` }))).toBeLessThanOrEqual(63);
  });

  it('stop naming past the bound: further texts run unnamed', () => {
    const name = statementNamer(1);
    expect(name({ sql: 'select 1 from "tasks"' })).toBeTruthy();
    expect(name({ sql: 'select 2 from "tasks"' })).toBeUndefined();
  });
});
