// Live task status over graphql-ws (WebSocket on /graphql), one connection per tab. The browser sends
// the session cookie with the upgrade request, which is how the service knows who is watching.
import { createClient, type Client } from 'graphql-ws';
import type { TypedDocumentString } from './generated/gql/graphql.js';

let client: Client | null = null;

function liveClient(): Client {
  if (client) return client;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  client = createClient({ url, lazy: true, retryAttempts: 5 });
  return client;
}

// After signing in or out: the next subscription opens a socket as the new user.
export function resetLive(): void {
  void client?.dispose();
  client = null;
}

// Calls onData with each result until the returned function is called.
export function subscribe<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
  on: { data: (data: TResult) => void; error: (message: string) => void; complete?: () => void },
): () => void {
  return liveClient().subscribe<TResult>(
    { query: document.toString(), variables: variables as Record<string, unknown> },
    {
      next: (result) => {
        if (result.errors?.length) on.error(result.errors.map((e) => e.message).join('; '));
        else if (result.data) on.data(result.data);
      },
      error: (error) => on.error(error instanceof Error ? error.message : 'the live connection failed'),
      complete: () => on.complete?.(),
    },
  );
}
