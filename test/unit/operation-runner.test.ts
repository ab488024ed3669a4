// The REST adapter's runner executes its fixed documents compiled (graphql-jit, graphql/operation.ts);
// /graphql executes them with graphql-js. Both must answer the same: the data, and each error as the
// mask makes it (an AppError as it is, the request's own errors to the caller, anything else INTERNAL),
// including errors of the execution itself, which graphql-jit reports in its own way. Run on the schema
// with services that answer from memory, so each answer can be bent into the error it should cause.
import { execute, parse, print, type GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { notFound } from '../../src/errors.js';
import { createGraphQLServer } from '../../src/graphql/yoga.js';
import { operationRunner } from '../../src/graphql/operation.js';
import { createLogger } from '../../src/logger.js';
import { createTask, listTasks } from '../../src/rest/routes/tasks.js';
import type { Context } from '../../src/schema/context.js';
import { schema } from '../../src/schema/index.js';

const { yoga, maskError } = createGraphQLServer({ services: {} as never, verifyJwt: null, logger: createLogger('silent'), production: true });
const run = operationRunner(yoga as never, maskError);

// What graphql-js answers, masked as /graphql masks it.
async function reference(query: string, variables: Record<string, unknown>, contextValue: Context) {
  const result = await execute({ schema, document: parse(query), variableValues: variables, contextValue });
  return { data: result.data, errors: result.errors?.map((error) => maskError(error, 'Unexpected error.') as GraphQLError) };
}

// An answer as a client sees it (error locations are graphql-js's alone and no REST answer carries them).
const seen = (result: { data?: unknown; errors?: ReadonlyArray<GraphQLError> }) => ({
  data: result.data,
  errors: result.errors?.map((e) => ({ message: e.message, path: e.path, code: e.extensions?.code, extensions: e.extensions })),
});

const at = new Date('2026-11-29T08:00:00.000Z');
const task = {
  id: 'tsk_1', status: 'pending', title: 'A task', description: 'd', input: { n: 1 }, capabilities: ['x'], protocols: [], priority: 'normal',
  maxPriceCents: null, agentId: null, requestedAgentId: null, requesterId: 'usr_1', result: null, error: null, rating: null,
  expiresAt: at, createdAt: at, updatedAt: at, matchedAt: null, startedAt: null, finishedAt: null, payment: null,
  reviewWindowSeconds: 0, requirements: null, routing: null, inputHash: null, resultHash: null, inputRequest: null, inputRounds: 0,
  reviewEndsAt: null, approvedBy: null, disputeReason: null, disputeStatement: null, disputeContestedAt: null, disputeAnswerBy: null,
};

function contextWith(tasks: Record<string, unknown>, scopes: string[] = ['tasks:read', 'tasks:write'], signedIn = true): Context {
  const viewer = signedIn ? ({ id: 'usr_1', isAdmin: false } as never) : null;
  return { viewer, scopes: scopes as never, services: { tasks, receipts: { issue: () => null } } as never, prisma: {} as never };
}
const listing = (row: Record<string, unknown>) => contextWith({ list: async () => ({ tasks: [row], nextCursor: null }) });

const list = print(listTasks.document);
const create = print(createTask.document);
const listVariables = { role: 'requester', limit: 1 };
const cases: [string, string, Record<string, unknown>, Context][] = [
  ['a page', list, listVariables, listing(task)],
  ['a created task', create, { input: { title: 't', description: 'd' } }, contextWith({ create: async () => ({ taskId: task.id, task, authorization: null }) })],
  ['an argument the schema refuses', list, { role: 'requester', limit: 1000 }, listing(task)],
  ['an input the schema refuses', create, { input: { title: '', description: 'd' } }, contextWith({})],
  ['a credential without the scope', list, listVariables, contextWith({}, ['agents:read'])],
  ['no caller', list, listVariables, contextWith({}, [], false)],
  ['an AppError from the service', list, listVariables, contextWith({ list: async () => Promise.reject(notFound('task')) })],
  ['an unexpected error from the service', list, listVariables, contextWith({ list: async () => Promise.reject(new Error('boom')) })],
  ['a null in a non-null field', list, listVariables, listing({ ...task, title: null })],
  ['a value a custom scalar cannot represent', list, listVariables, listing({ ...task, createdAt: 'yesterday' })],
  ['a value an enum cannot represent', list, listVariables, listing({ ...task, status: 'unknown' })],
  ['a value a built-in scalar cannot represent, in a nullable field', list, listVariables, listing({ ...task, rating: 'x' })],
];

describe('the compiled REST documents', () => {
  for (const [name, query, variables, context] of cases) {
    it(`answer what graphql-js answers: ${name}`, async () => {
      expect(seen(await run(query, variables, context))).toEqual(seen(await reference(query, variables, context)));
    });
  }
});
