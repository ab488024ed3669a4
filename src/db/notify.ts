// LISTEN/NOTIFY, the statements of the live events (events/bus.ts): a listening connection's channels,
// and a notification sent on a pool.
import type pg from 'pg';

// Channel names are the service's own constants, never input: they are written into the statement.
export async function listenTo(client: pg.Client, ...channels: string[]): Promise<void> {
  for (const channel of channels) await client.query(`LISTEN ${channel}`);
}

export async function notify(pool: pg.Pool, channel: string, payload: string): Promise<void> {
  await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
}
