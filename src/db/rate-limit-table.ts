// The rate limiter's table on PostgreSQL (http/rate-limit.ts), in a schema of its own so that it stays out
// of the application schema that migrations manage. Several processes may create it at once.
import type pg from 'pg';

export const RATE_LIMIT_SCHEMA = 'rate_limit';
export const RATE_LIMIT_TABLE = 'buckets';

export async function createRateLimitTable(pool: pg.Pool): Promise<void> {
  await pool.query(`CREATE SCHEMA IF NOT EXISTS ${RATE_LIMIT_SCHEMA}`).catch((error: { code?: string }) => {
    if (error.code !== '23505' && error.code !== '42P06') throw error; // another process created it first
  });
  await pool
    .query(`CREATE TABLE IF NOT EXISTS ${RATE_LIMIT_SCHEMA}.${RATE_LIMIT_TABLE} (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`)
    .catch((error: { code?: string }) => {
      if (error.code !== '23505' && error.code !== '42P07') throw error;
    });
}
