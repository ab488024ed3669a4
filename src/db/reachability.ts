// Connects once to the DATABASE_URL server before migrations run, so that a server that is down, a
// database that does not exist or refused credentials are told in one line naming the setting, instead
// of a driver's stack from inside the WASM schema engine. The password never appears in the message.
import pg from 'pg';
import type { Db } from './client.js';

export class DatabaseUnreachableError extends Error {}

function describe(url: URL): string {
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  return `database "${database}" on ${url.hostname || 'localhost'}:${url.port || '5432'}`;
}

function reason(error: NodeJS.ErrnoException & { code?: string }): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'the server refused the connection (is PostgreSQL running there?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve';
    case 'ETIMEDOUT':
      return 'the connection timed out';
    case '3D000':
      return 'the database does not exist (create it, or name another)';
    case '28P01':
    case '28000':
      return 'the server refused the credentials';
    default:
      return error.code ? `${error.code}: ${error.message}` : error.message;
  }
}

export async function ensureDatabaseReachable(databaseUrl: string, timeoutMs = 10_000): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: timeoutMs });
  // A failed connect also emits 'error' on the client; without a listener that would crash the process.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    const message = (error as Error).message ?? '';
    const timedOut = /timeout/i.test(message) ? Object.assign(error as Error, { code: 'ETIMEDOUT' }) : error;
    throw new DatabaseUnreachableError(`DATABASE_URL: cannot use the ${describe(new URL(databaseUrl))}: ${reason(timedOut as NodeJS.ErrnoException)}`);
  } finally {
    await client.end().catch(() => {});
  }
}

// Whether the database answers a query now (the readiness probe).
export function answersQueries(db: Db): Promise<boolean> {
  return db.$queryRaw`SELECT 1`.then(
    () => true,
    () => false,
  );
}
