// Names for server-side prepared statements. A named statement is parsed and planned once per
// connection and then only bound and executed: for discovery's search query (one long SQL text) this
// took a sixth off the database's time per request. Names come from the SQL text, so every connection
// of the pool agrees on them. The set of named texts is bounded: each one costs every connection of the
// pool a cached statement on the server, and texts vary with the shape of a request (how many words a
// search has, which filters), so texts beyond the bound run unnamed, as they would without this.
import { createHash } from 'node:crypto';

export const MAX_NAMED_STATEMENTS = 1000;

export function statementNamer(limit = MAX_NAMED_STATEMENTS): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (name === undefined && names.size < limit) {
      name = `stmt_${createHash('sha256').update(sql).digest('base64url').slice(0, 32)}`;
      names.set(sql, name);
    }
    // pg sends a statement without a name as the unnamed statement, parsed again each time.
    return name as string;
  };
}
