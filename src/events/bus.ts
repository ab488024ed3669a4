// Live task events for subscriptions. With a PostgreSQL server they travel through LISTEN/NOTIFY, so a
// subscriber on one process sees changes made by another; the embedded database lives in one process,
// where an in-process emitter is the same thing.
import { listenTo, notify } from '../db/notify.js';
import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Logger } from '../logger.js';

export interface TaskEvent {
  taskId: string;
  status: string;
  requesterId: string;
  agentOwnerId: string | null;
  // The assigned agent, when the move's statement knows it: a match wakes the agent's waiting claims.
  agentId?: string | null;
}

export interface EventBus {
  publish(event: TaskEvent): Promise<void>;
  // A pulling agent has work to claim again (a delivery's retry came due, a task was given back): its
  // waiting claims in every process wake (subscribe({ agentId })).
  publishWork(agentId: string): Promise<void>;
  // With a PostgreSQL server, the channel a transaction can send an event on itself (pg_notify, delivered
  // at its commit) instead of publish() after it; null in one process, where publish() costs no statement.
  readonly notifyChannel: string | null;
  // An event a transaction sent on notifyChannel has left with its commit (for what counts events).
  sentInTransaction(event: TaskEvent): void;
  // A credential (an API key, an app's grant) was revoked: every process ends the subscriptions it opened.
  publishRevokedKey(credentialId: string): Promise<void>;
  onRevokedKey(listener: (credentialId: string) => void): void;
  // Search results may have changed: a transaction that wrote to the tables a search reads committed (the
  // search_changed triggers announce it at the commit, in any process): 'changed'. 'lost' when this
  // process may miss such news (its listening connection dropped); 'changed' follows once it listens
  // again. Returns whether the bus hears the database now: never for the embedded one (whose writes may
  // come from the CLI's process through its socket), which never calls the listener.
  watchSearchChanges(listener: (news: SearchNews) => void): boolean;
  // Yields the events of the interest published from the moment of the call (not of the first read)
  // until the signal aborts or the streams are ended.
  subscribe(interest: Interest, signal: AbortSignal): AsyncIterable<TaskEvent>;
  // Subscribers registered in this process (tests and metrics).
  count(): number;
  // Ends every subscription (shutdown: subscribers' streams must finish before the server can close).
  // Publishing keeps working.
  endSubscriptions(): void;
  close(): Promise<void>;
}

export type SearchNews = 'changed' | 'lost';

// Exported for the fan-out benchmark, which announces events as a task move on another process would.
export const TASK_EVENTS_CHANNEL = 'task_events';
const REVOKED_KEYS = 'revoked_api_keys';
const AGENT_WORK = 'agent_work';
// Sent by the search_changed triggers (migration search_changed_notify).
const SEARCH_CHANGED = 'search_changed';

// Who a subscriber listens for: one task's events, or those of every task a user is the requester of
// or owns the agent of, or the work of one pulling agent (its matches and re-offers).
export type Interest = { taskId: string } | { userId: string } | { agentId: string };

// A subscriber's events not yet read. Events are pushed to it only when they concern it, so one event
// costs the process the subscribers it concerns, not all of them.
class EventQueue implements AsyncIterableIterator<TaskEvent> {
  private readonly buffered: TaskEvent[] = [];
  private waiting: ((result: IteratorResult<TaskEvent>) => void) | null = null;
  private ended = false;
  constructor(private readonly onEnd: () => void) {}

  push(event: TaskEvent) {
    if (this.ended) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: event, done: false });
    } else this.buffered.push(event);
  }

  end() {
    if (this.ended) return;
    this.ended = true;
    this.buffered.length = 0;
    this.onEnd();
    this.waiting?.({ value: undefined, done: true });
    this.waiting = null;
  }

  next(): Promise<IteratorResult<TaskEvent>> {
    const event = this.buffered.shift();
    if (event) return Promise.resolve({ value: event, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<TaskEvent>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

// The process's one dispatcher of task events to its subscribers, indexed by task and by user.
function localFanout() {
  const revoked = new EventEmitter();
  revoked.setMaxListeners(0);
  const subscribers = new Map<string, Set<EventQueue>>();
  const keyOf = (interest: Interest) =>
    'taskId' in interest ? `task:${interest.taskId}` : 'userId' in interest ? `user:${interest.userId}` : `agent:${interest.agentId}`;
  const ending = new AbortController();
  const deliver = (key: string, event: TaskEvent) => {
    for (const queue of subscribers.get(key) ?? []) queue.push(event);
  };
  return {
    emit(event: TaskEvent) {
      deliver(`task:${event.taskId}`, event);
      deliver(`user:${event.requesterId}`, event);
      // A user who asked their own agent is told once.
      if (event.agentOwnerId && event.agentOwnerId !== event.requesterId) deliver(`user:${event.agentOwnerId}`, event);
      if (event.agentId && event.status === 'matched') deliver(`agent:${event.agentId}`, event);
    },
    // Only the agent's waiting claims hear this; they claim again, whatever the event says.
    emitWork: (agentId: string) => deliver(`agent:${agentId}`, { taskId: '', status: 'matched', requesterId: '', agentOwnerId: null, agentId }),
    emitRevokedKey: (apiKeyId: string) => revoked.emit('revoked', apiKeyId),
    onRevokedKey: (listener: (apiKeyId: string) => void) => void revoked.on('revoked', listener),
    // The subscriber is registered here, before anything is read, so it can start listening and then
    // read the current state without missing a change that lands in between.
    subscribe(interest: Interest, signal: AbortSignal): AsyncIterable<TaskEvent> {
      const stop = AbortSignal.any([signal, ending.signal]);
      const key = keyOf(interest);
      const queue: EventQueue = new EventQueue(() => {
        stop.removeEventListener('abort', end);
        const set = subscribers.get(key);
        set?.delete(queue);
        if (set?.size === 0) subscribers.delete(key);
      });
      const end = () => queue.end();
      // Subscribing after the streams were ended (during shutdown) gives a stream that ends at once.
      if (stop.aborted) {
        queue.end();
        return queue;
      }
      let set = subscribers.get(key);
      if (!set) subscribers.set(key, (set = new Set()));
      set.add(queue);
      stop.addEventListener('abort', end, { once: true });
      return queue;
    },
    count: () => [...subscribers.values()].reduce((sum, set) => sum + set.size, 0),
    end: () => ending.abort(),
  };
}

// `revocations`: the embedded database's URL. Revoking is announced through it (pg_notify) as well as
// here, and with `listen` this process hears what others announce: the CLI revoking a key on the
// embedded database reaches the server through the socket's notification relay (db/notification-relay.ts).
export async function createLocalBus(revocations?: { url: string; listen: boolean; logger: Logger }): Promise<EventBus> {
  const fanout = localFanout();
  const relay = revocations ? await revocationChannel(revocations.url, revocations.listen, revocations.logger, fanout.emitRevokedKey) : null;
  return {
    notifyChannel: null,
    sentInTransaction: () => {},
    publish: async (event) => void fanout.emit(event),
    publishWork: async (agentId) => void fanout.emitWork(agentId),
    async publishRevokedKey(credentialId) {
      fanout.emitRevokedKey(credentialId);
      await relay?.announce(credentialId);
    },
    onRevokedKey: fanout.onRevokedKey,
    watchSearchChanges: () => false,
    subscribe: (interest, signal) => fanout.subscribe(interest, signal),
    count: fanout.count,
    endSubscriptions: () => fanout.end(),
    close: async () => {
      fanout.end();
      await relay?.close();
    },
  };
}

// Revocations over the database's LISTEN/NOTIFY, for the embedded database's processes.
async function revocationChannel(url: string, listen: boolean, logger: Logger, heard: (credentialId: string) => void) {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', (error) => logger.warn({ err: error }, 'revocation pool error'));
  let listener: pg.Client | null = null;
  if (listen) {
    listener = new pg.Client({ connectionString: url });
    listener.on('notification', (msg) => {
      if (msg.channel === REVOKED_KEYS && msg.payload) heard(msg.payload);
    });
    listener.on('error', (error) => logger.warn({ err: error }, 'revocation listener lost'));
    await listener.connect();
    await listenTo(listener, REVOKED_KEYS);
  }
  return {
    announce: (credentialId: string) => notify(pool, REVOKED_KEYS, credentialId),
    close: async () => {
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}

export async function createPgBus(connectionString: string, logger: Logger): Promise<EventBus> {
  const fanout = localFanout();
  const pool = new pg.Pool({ connectionString, max: 2 });
  pool.on('error', (error) => logger.warn({ err: error }, 'event bus pool error'));
  let listener: pg.Client | null = null;
  let closed = false;
  const searchNews = new EventEmitter();

  async function listen(): Promise<void> {
    const client = new pg.Client({ connectionString });
    client.on('notification', (msg) => {
      if (msg.channel === SEARCH_CHANGED) return void searchNews.emit('news', 'changed');
      if (msg.channel === REVOKED_KEYS && msg.payload) return void fanout.emitRevokedKey(msg.payload);
      if (msg.channel === AGENT_WORK && msg.payload) return void fanout.emitWork(msg.payload);
      if (msg.channel !== TASK_EVENTS_CHANNEL || !msg.payload) return;
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
      searchNews.emit('news', 'lost');
      if (!closed) setTimeout(() => void listen().catch(() => {}), 1000);
    });
    await client.connect();
    await listenTo(client, TASK_EVENTS_CHANNEL, REVOKED_KEYS, SEARCH_CHANGED, AGENT_WORK);
    listener = client;
    // Anything may have changed while no connection listened.
    searchNews.emit('news', 'changed');
  }
  await listen();

  return {
    notifyChannel: TASK_EVENTS_CHANNEL,
    sentInTransaction: () => {},
    async publish(event) {
      await notify(pool, TASK_EVENTS_CHANNEL, JSON.stringify(event));
    },
    async publishWork(agentId) {
      await notify(pool, AGENT_WORK, agentId);
    },
    async publishRevokedKey(apiKeyId) {
      await notify(pool, REVOKED_KEYS, apiKeyId);
    },
    onRevokedKey: fanout.onRevokedKey,
    watchSearchChanges(onNews) {
      searchNews.on('news', onNews);
      return listener !== null && !closed;
    },
    subscribe: (interest, signal) => fanout.subscribe(interest, signal),
    count: fanout.count,
    endSubscriptions: () => fanout.end(),
    async close() {
      closed = true;
      // No more news will come.
      searchNews.emit('news', 'lost');
      fanout.end();
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}
