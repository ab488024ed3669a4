// A user with an API key, written into the database of a service running in its own process (through the
// embedded database's socket, or on the PostgreSQL server), for process tests whose subject is not the
// CLI: `npm run cli -- user create` does the same in a process of its own, which costs about two seconds.
import { createKysely } from '../../src/db/kysely.js';
import { embeddedSocketUrl } from '../../src/db/embedded.js';
import { createUserWithKey } from '../../src/services/accounts/index.js';

/** `env` is the service process's: DATABASE_URL, else DATA_DIR's embedded database. */
export async function createUserOf(env: Record<string, string>, email: string): Promise<{ id: string; apiKey: string }> {
  const sql = createKysely(env.DATABASE_URL ?? embeddedSocketUrl(env.DATA_DIR!), 1);
  try {
    const { user, apiKey } = await createUserWithKey(sql, { email });
    return { id: user.id, apiKey };
  } finally {
    await sql.destroy();
  }
}
