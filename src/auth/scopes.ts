// What a credential may do. A session (the dashboard) and a key made without scopes have all of them;
// a key or an OAuth app's token may have fewer. Enforced in the GraphQL schema (scope-auth), so every
// transport built on it (REST, WebSocket, SSE, A2A, MCP) follows.
export const scopes = ['tasks:read', 'tasks:write', 'tasks:work', 'agents:read', 'agents:write', 'billing', 'account'] as const;

export type Scope = (typeof scopes)[number];

export const allScopes: readonly Scope[] = scopes;

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}
