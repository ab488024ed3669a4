// Names for server-side prepared statements. A named statement is parsed and planned once per
// connection and then only bound and executed: for discovery's search query (one long SQL text) this
// took a sixth off the database's time per request. The set of named texts is bounded: each one costs
// every connection of the pool a cached statement on the server, and texts vary with the shape of a
// request (how many words a search has, which filters), so texts beyond the bound run unnamed, as they
// would without this.
//
// A name says what the statement does, as graphile-worker names its own, so a slow-query log, an
// `EXECUTE` in the server's log or pg_prepared_statements reads without a lookup table: the aggregate and
// the act (`task.update`, `delivery.create`, `agent.read`, `job.add`), then a short hash of the text, as
// statements of the same aggregate and act differ (`task.update.k3Fq9xZa`). A statement may name itself
// with a leading comment, `/* delivery.claim */ UPDATE …`, which then stands in for the derived part.
// Names come from the SQL text alone, so every connection of the pool agrees on them.
import { createHash } from 'node:crypto';

export const MAX_NAMED_STATEMENTS = 1000;

// PostgreSQL keeps 63 bytes of a name; the derived part is cut to leave room for the hash.
const MAX_WHAT = 48;

const ACTS: Record<string, string> = { 'insert into': 'create', update: 'update', 'delete from': 'delete' };

// A table's rows as one of them: `tasks` → `task`, `deliveries` → `delivery`, graphile-worker's
// `_private_jobs` → `job`.
function entityOf(table: string): string {
  const name = table.replace(/^_private_/, '').replace(/^_+/, '');
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (name.endsWith('sses')) return name.slice(0, -2);
  if (name.endsWith('s') && !name.endsWith('ss')) return name.slice(0, -1);
  return name;
}

// `"schema"."table"` or `table` as the table's own name.
const TABLE = String.raw`(?:"?[a-z_][\w]*"?\s*\.\s*)?"?([a-z_][\w]*)"?`;
const CHANGE = new RegExp(String.raw`\b(insert\s+into|update|delete\s+from)\s+${TABLE}`);
const READ = new RegExp(String.raw`\bfrom\s+${TABLE}`);
// `SELECT graphile_worker.add_job(…)` and the like: a function called for its effect.
const CALL = /^\s*select\s+(?:"?([a-z_]\w*)"?\s*\.\s*)?"?([a-z_]\w*)"?\s*\(/;

/** What a statement does, from its text: `task.update`, `agent.read`, `job.add`, `begin`. */
export function describeStatement(text: string): string {
  const own = /^\s*\/\*\s*([a-z][\w.-]*)\s*\*\//i.exec(text);
  if (own) return own[1]!;
  const sql = text.toLowerCase();
  const word = /^\s*(\w+)/.exec(sql)?.[1] ?? 'statement';
  if (['begin', 'commit', 'rollback', 'savepoint', 'release', 'listen', 'unlisten', 'set', 'show'].includes(word)) return word;
  // The first change names it, also inside a WITH (a CTE's UPDATE is what such a statement is for).
  const change = CHANGE.exec(sql);
  if (change) return `${entityOf(change[2]!)}.${ACTS[change[1]!.replace(/\s+/g, ' ')]}`;
  const call = CALL.exec(sql);
  if (call && !READ.test(sql)) {
    // graphile-worker's add_job → job.add; pg_notify → notify.
    const fn = call[2]!;
    const parts = /^(add|get|complete|fail|remove|reschedule|force_unlock|permanently_fail)_(\w+)$/.exec(fn);
    return parts ? `${entityOf(parts[2]!)}.${parts[1]}` : fn.replace(/^pg_/, '');
  }
  const read = READ.exec(sql);
  if (read) return `${entityOf(read[1]!)}.read`;
  return word;
}

export function statementNamer(limit = MAX_NAMED_STATEMENTS): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (name === undefined && names.size < limit) {
      const what = describeStatement(sql).slice(0, MAX_WHAT);
      name = `${what}.${createHash('sha256').update(sql).digest('base64url').slice(0, 8)}`;
      names.set(sql, name);
    }
    // pg sends a statement without a name as the unnamed statement, parsed again each time.
    return name as string;
  };
}
