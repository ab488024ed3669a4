// The /v1 routes the other transports run (A2A's handler, MCP's tools), by name: they name the route
// object itself, so a route renamed or removed here is a compile error there, not a failed look-up at run
// time. Each is also in the REST table (rest/routes/index.ts): the transports answer what REST answers.
import type { Route } from '../route.js';
import { cancelTask, createTask, getTask, listTasks, provideTaskInput } from './tasks.js';
import { getAgent, searchAgents } from './discovery.js';

export const operations = { createTask, getTask, listTasks, cancelTask, provideTaskInput, searchAgents, getAgent } as const satisfies Record<string, Route>;

export type OperationName = keyof typeof operations;
