// Live task events for subscriptions. With a PostgreSQL server they travel through LISTEN/NOTIFY, so a
// subscriber on one process sees changes made by another; the embedded database lives in one process,
// where an in-process emitter is the same thing.
import { EventEmitter, on } from 'node:events';
import pg from 'pg';
import type { Logger } from '../logger.js';

export interface TaskEvent {
  taskId: string;
  status: string;
  requesterId: string;
  agentOwnerId: string | null;
}

export interface EventBus {
  publish(event: TaskEvent): Promise<void>;
  // With a PostgreSQL server, the channel a transaction can send an event on itself (pg_notify, delivered
  // at its commit) instead of publish() after it; null in one process, where publish() costs no statement.
  readonly notifyChannel: string | null;
  // An event a transaction sent on notifyChannel has left with its commit (for what counts events).
  sentInTransaction(event: TaskEvent): void;
  // An API key was revoked: every process ends the subscriptions it opened.
  publishRevokedKey(apiKeyId: string): Promise<void>;
  onRevokedKey(listener: (apiKeyId: string) => void): void;
  // Yields events published from the moment of the call (not of the first read) until the signal
  // aborts or the streams are ended.
  subscribe(signal: AbortSignal): AsyncIterable<TaskEvent>;
  // Ends every subscription (shutdown: subscribers' streams must finish before the server can close).
  // Publishing keeps working.
  endSubscriptions(): void;
  close(): Promise<void>;
}

const CHANNEL = 'task_events';
const REVOKED_KEYS = 'revoked_api_keys';

function localFanout() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const ending = new AbortController();
  return {
    emit: (event: TaskEvent) => emitter.emit('event', event),
    emitRevokedKey: (apiKeyId: string) => emitter.emit('revoked', apiKeyId),
    onRevokedKey: (listener: (apiKeyId: string) => void) => void emitter.on('revoked', listener),
    subscribe(signal: AbortSignal): AsyncIterable<TaskEvent> {
      // The listener is registered here, before anything is read, so a subscriber can start listening
      // and then read the current state without missing a change that lands in between.
      const stop = AbortSignal.any([signal, ending.signal]);
      // Subscribing after the streams were ended (during shutdown) gives a stream that ends at once.
      if (stop.aborted) return (async function* () {})();
      const events = on(emitter, 'event', { signal: stop });
      return (async function* () {
        try {
          for await (const [event] of events) yield event as TaskEvent;
        } catch (error) {
          if ((error as Error).name !== 'AbortError') throw error;
        }
      })();
    },
    end: () => ending.abort(),
  };
}

export function createLocalBus(): EventBus {
  const fanout = localFanout();
  return {
    notifyChannel: null,
    sentInTransaction: () => {},
    publish: async (event) => void fanout.emit(event),
    publishRevokedKey: async (apiKeyId) => void fanout.emitRevokedKey(apiKeyId),
    onRevokedKey: fanout.onRevokedKey,
    subscribe: (signal) => fanout.subscribe(signal),
    endSubscriptions: () => fanout.end(),
    close: async () => fanout.end(),
  };
}

export async function createPgBus(connectionString: string, logger: Logger): Promise<EventBus> {
  const fanout = localFanout();
  const pool = new pg.Pool({ connectionString, max: 2 });
  pool.on('error', (error) => logger.warn({ err: error }, 'event bus pool error'));
  let listener: pg.Client | null = null;
  let closed = false;

  async function listen(): Promise<void> {
    const client = new pg.Client({ connectionString });
    client.on('notification', (msg) => {
      if (msg.channel === REVOKED_KEYS && msg.payload) return void fanout.emitRevokedKey(msg.payload);
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        fanout.emit(JSON.parse(msg.payload) as TaskEvent);
      } catch {
        logger.warn('ignored a malformed task event');
      }
    });
    // A lost connection is re-established; events sent meanwhile are missed (subscribers re-read state).
    client.on('error', (error) => {
      logger.warn({ err: error }, 'event listener connection lost');
      listener = null;
      if (!closed) setTimeout(() => void listen().catch(() => {}), 1000);
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    await client.query(`LISTEN ${REVOKED_KEYS}`);
    listener = client;
  }
  await listen();

  return {
    notifyChannel: CHANNEL,
    sentInTransaction: () => {},
    async publish(event) {
      await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(event)]);
    },
    async publishRevokedKey(apiKeyId) {
      await pool.query('SELECT pg_notify($1, $2)', [REVOKED_KEYS, apiKeyId]);
    },
    onRevokedKey: fanout.onRevokedKey,
    subscribe: (signal) => fanout.subscribe(signal),
    endSubscriptions: () => fanout.end(),
    async close() {
      closed = true;
      fanout.end();
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}
