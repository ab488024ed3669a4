// pglite-socket (pinned at 0.2.17) serves many connections from PGlite's single session and interleaves
// their messages one by one, keeping a connection's messages together only inside an explicit
// transaction. The extended query protocol (Parse, Bind, Describe, Execute … Sync) also needs that: a
// Bind must follow its own Parse, or it binds another connection's unnamed statement. This replaces the
// queue's scheduling so a connection keeps the database from its first extended-protocol message until
// its Sync, as well as for a whole transaction.
import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { NotificationRelay } from './notification-relay.js';

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData(data: Uint8Array): void;
  resolve(bytes: number): void;
  reject(error: unknown): void;
}

interface QueueInternals {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: PGlite;
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

// Frontend messages that open or continue an extended-protocol exchange, and the ones that end it.
const CONTINUES = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));
const ENDS = new Set(['S', 'X'].map((c) => c.charCodeAt(0)));

export function keepExtendedQueriesTogether(server: PGLiteSocketServer): void {
  const queue = (server as unknown as { queryQueue: QueueInternals }).queryQueue;
  if (!queue || typeof queue.processQueue !== 'function' || !Array.isArray(queue.queue)) {
    throw new Error('unexpected @electric-sql/pglite-socket internals; check the pinned version');
  }
  const open = new Set<number>();
  const notifications = new NotificationRelay();

  queue.processQueue = async function processQueue(this: QueueInternals) {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const owner = this.lastHandlerId;
        const exclusive = owner !== null && (open.has(owner) || this.db.isInTransaction());
        const index = exclusive ? this.queue.findIndex((m) => m.handlerId === owner) : 0;
        // The owner's next message has not arrived yet; its enqueue restarts processing.
        if (index === -1) break;
        const item = this.queue.splice(index, 1)[0]!;
        const type = item.message[0]!;
        if (CONTINUES.has(type)) open.add(item.handlerId);
        else if (ENDS.has(type)) open.delete(item.handlerId);
        let bytes = 0;
        notifications.incoming(item.handlerId, item.message, item.onData);
        const output: Uint8Array[] = [];
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                // Copied: PGlite reuses its output buffer.
                if (notifications.listening) output.push(data.slice());
                item.onData(data);
              },
            }),
          );
          notifications.outgoing(item.handlerId, output);
        } catch (error) {
          open.delete(item.handlerId);
          item.reject(error);
          continue;
        }
        this.lastHandlerId = item.handlerId;
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  };

  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId: number) => {
    clear(handlerId);
    notifications.drop(handlerId);
    // A connection that went away mid-exchange must not hold the database.
    if (open.delete(handlerId) && queue.lastHandlerId === handlerId) queue.lastHandlerId = null;
    void queue.processQueue();
  };
}
