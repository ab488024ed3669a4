// Live task status over graphql-ws (WebSocket on /graphql), one connection per tab, authenticated in
// connection_init the way the service expects.
import { createClient, type Client } from 'graphql-ws';
import type { TypedDocumentString } from './generated/gql/graphql.js';
import { session } from './api.js';

let client: Client | null = null;
let clientToken: string | null = null;

function liveClient(): Client {
  const token = session.get();
  if (client && clientToken === token) return client;
  void client?.dispose();
  clientToken = token;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  client = createClient({
    url,
    lazy: true,
    retryAttempts: 5,
    connectionParams: () => (token ? { authorization: `Bearer ${token}` } : {}),
  });
  return client;
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
