// A2A and MCP run /v1 routes named as objects (rest/routes/operations.ts); the executor finds them in the
// REST table by identity. A route named there but left out of the table would fail only when run: this
// checks that none is, and that the transports name nothing else.
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/rest/routes/operations.js';
import { routes } from '../../src/rest/routes/index.js';
import { toolDefinitions } from '../../src/mcp/tools.js';

describe('the operations other transports run', () => {
  it('are all in the REST table, so they answer what REST answers', () => {
    for (const [name, route] of Object.entries(operations)) expect(routes.includes(route), `${name}: ${route.method} ${route.path}`).toBe(true);
  });

  it('are what the MCP tools run', () => {
    const named = new Set<unknown>(Object.values(operations));
    for (const tool of toolDefinitions) expect(named.has(tool.route), tool.name).toBe(true);
  });
});
