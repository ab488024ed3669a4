// For bench:lifecycle --processes: a subscriber on one service process follows a task created through
// another, and must see it completed (the event travels through PostgreSQL's NOTIFY between them).
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const TASK_UPDATED = 'subscription($id: ID!) { taskUpdated(id: $id) { status } }';

// Resolves with the statuses seen, once `completed` is among them, or rejects after `timeoutMs`.
export async function followTask(opts: { base: string; apiKey: string; taskId: string; timeoutMs: number; subscribed: () => void }): Promise<string[]> {
  const client = createClient({
    url: `${opts.base.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${opts.apiKey}` },
    retryAttempts: 0,
  });
  const statuses: string[] = [];
  try {
    return await new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no completed event within ${opts.timeoutMs} ms (saw ${statuses.join(', ') || 'nothing'})`)), opts.timeoutMs);
      client.subscribe<{ taskUpdated: { status: string } }>(
        { query: TASK_UPDATED, variables: { id: opts.taskId } },
        {
          next: (value) => {
            const status = value.data?.taskUpdated.status;
            if (!status) return reject(new Error(JSON.stringify(value.errors)));
            statuses.push(status);
            // The first answer is the current state: the subscription is in place.
            if (statuses.length === 1) opts.subscribed();
            if (status === 'completed') {
              clearTimeout(timer);
              resolve(statuses);
            }
          },
          error: (error) => reject(error instanceof Error ? error : new Error(JSON.stringify(error))),
          complete: () => {},
        },
      );
    });
  } finally {
    await client.dispose();
  }
}
