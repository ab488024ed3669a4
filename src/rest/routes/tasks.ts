import { graphql } from '../../generated/gql/index.js';
import { enumParam, intParam } from '../params.js';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { route } from '../route.js';
import { array, data, literal, merge, nullable, object, result } from '../shape.js';

graphql(`
  fragment TaskFields on Task {
    id
    status
    title
    description
    input
    capabilities
    protocols
    priority
    maxPriceCents
    agentId
    requesterId
    result
    error
    rating
    expiresAt
    createdAt
    updatedAt
    matchedAt
    startedAt
    finishedAt
    payment {
      method
      status
      amountCents
      autoCharged
    }
  }
`);

const STATUSES = ['pending', 'matched', 'in_progress', 'completed', 'failed', 'cancelled', 'expired'] as const;

// The task moves whose answer is the task as it is afterwards.
function move<TData, TVars>(
  method: 'PATCH' | 'POST',
  name: string,
  document: TypedDocumentNode<TData, TVars>,
  field: keyof TData & string,
  summary: string,
  bodyFields: string[] = [],
) {
  return route<TData, TVars>({
    method,
    path: `/v1/tasks/:id/${name}`,
    document,
    // A missing field is sent as null, so GraphQL names it as required.
    variables: (req) => ({ id: req.params.id!, ...Object.fromEntries(bodyFields.map((f) => [f, req.body?.[f] ?? null])) }) as TVars,
    respond: (data) => ({ body: { data: data[field] } }),
    summary,
    ...(bodyFields.length ? { request: { body: bodyFields } } : {}),
    response: { body: data(field) },
  });
}

export const taskRoutes = [
  route({
    method: 'POST',
    path: '/v1/tasks',
    idempotent: true,
    document: graphql(`
      mutation RestCreateTask($input: CreateTaskInput!, $idempotencyKey: String) {
        createTask(input: $input, idempotencyKey: $idempotencyKey) {
          task {
            ...TaskFields
          }
          clientSecret
          autoCharged
        }
      }
    `),
    variables: (req) => {
      const key = req.headers['idempotency-key'];
      return { input: (req.body ?? {}) as never, idempotencyKey: (Array.isArray(key) ? key.join(',') : key) ?? null };
    },
    respond: (data) => {
      const { task, clientSecret, autoCharged } = data.createTask;
      const payment = task.payment ? { ...task.payment, autoCharged, ...(clientSecret ? { clientSecret } : {}) } : null;
      return { status: 201, body: { data: task, payment, ...(clientSecret ? { clientSecret } : {}) } };
    },
    summary: 'Submit a task; it is routed, paid for and delivered',
    request: { body: 'input' },
    response: {
      status: 201,
      body: object(
        {
          data: result('createTask.task'),
          payment: nullable(
            merge(result('createTask.task.payment'), object({ autoCharged: result('createTask.autoCharged'), clientSecret: literal({ type: 'string' }) }, ['clientSecret'])),
          ),
          clientSecret: literal({ type: 'string', description: 'The card hold to confirm, when no saved card was charged' }),
        },
        ['clientSecret'],
      ),
    },
  }),
  route({
    method: 'GET',
    path: '/v1/tasks',
    document: graphql(`
      query RestListTasks($role: TaskRole, $status: TaskStatus, $limit: Int, $cursor: String) {
        tasks(role: $role, status: $status, limit: $limit, cursor: $cursor) {
          data {
            ...TaskFields
          }
          nextCursor
        }
      }
    `),
    variables: (req) => ({
      role: enumParam(req.query, 'role', ['requester', 'agent'] as const),
      status: enumParam(req.query, 'status', STATUSES),
      limit: intParam(req.query, 'limit', { min: 1, max: 100 }),
      cursor: req.query.get('cursor') || undefined,
    }),
    respond: (data) => ({ body: { data: data.tasks.data, nextCursor: data.tasks.nextCursor } }),
    summary: 'Your tasks, as requester or as agent owner, newest first',
    request: { query: { role: 'role', status: 'status', limit: 'limit', cursor: 'cursor' } },
    response: { body: object({ data: result('tasks.data'), nextCursor: result('tasks.nextCursor') }) },
  }),
  route({
    method: 'POST',
    path: '/v1/tasks/route',
    document: graphql(`
      mutation RestRouteTask($input: RouteInput!) {
        routeTask(input: $input) {
          score
          agent {
            ...DiscoveryItemFields
            priceCents
            trustTier
            healthStatus
          }
        }
      }
    `),
    variables: (req) => ({ input: (req.body ?? {}) as never }),
    respond: (data) => ({ body: { data: data.routeTask.map((c) => ({ ...c.agent, score: c.score })) } }),
    summary: 'The agents a task would go to, best first; creates nothing',
    request: { body: 'input' },
    response: { body: object({ data: array(merge(result('routeTask[].agent'), object({ score: result('routeTask[].score') }))) }) },
  }),
  route({
    method: 'GET',
    path: '/v1/tasks/:id',
    document: graphql(`
      query RestGetTask($id: ID!) {
        task(id: $id) {
          ...TaskFields
        }
      }
    `),
    variables: (req) => ({ id: req.params.id! }),
    respond: (data) => ({ body: { data: data.task } }),
    summary: 'One task (its requester or the assigned agent’s owner)',
    response: { body: data('task') },
  }),
  move('PATCH', 'accept', graphql(`
    mutation RestAcceptTask($id: ID!) {
      acceptTask(id: $id) {
        ...TaskFields
      }
    }
  `), 'acceptTask', 'Accept a matched task (the assigned agent’s owner)'),
  move('PATCH', 'start', graphql(`
    mutation RestStartTask($id: ID!) {
      startTask(id: $id) {
        ...TaskFields
      }
    }
  `), 'startTask', 'Mark the task started (the assigned agent’s owner)'),
  move('PATCH', 'complete', graphql(`
    mutation RestCompleteTask($id: ID!, $result: JSON!) {
      completeTask(id: $id, result: $result) {
        ...TaskFields
      }
    }
  `), 'completeTask', 'Complete the task with a result (the assigned agent’s owner)', ['result']),
  move('PATCH', 'fail', graphql(`
    mutation RestFailTask($id: ID!, $error: String!) {
      failTask(id: $id, error: $error) {
        ...TaskFields
      }
    }
  `), 'failTask', 'Fail the task with an error (the assigned agent’s owner)', ['error']),
  move('POST', 'cancel', graphql(`
    mutation RestCancelTask($id: ID!) {
      cancelTask(id: $id) {
        ...TaskFields
      }
    }
  `), 'cancelTask', 'Cancel the task (its requester)'),
  route({
    method: 'POST',
    path: '/v1/tasks/:id/callback',
    public: true,
    document: graphql(`
      mutation RestTaskCallback($id: ID!, $taskToken: String!, $result: JSON, $error: String) {
        taskCallback(id: $id, taskToken: $taskToken, result: $result, error: $error)
      }
    `),
    variables: (req) => {
      const body = req.body ?? {};
      return { id: req.params.id!, taskToken: body.taskToken as string, result: body.result, error: body.error as string | undefined };
    },
    respond: (data, req) => ({ body: { data: { id: req.params.id, status: data.taskCallback } } }),
    summary: 'The agent’s answer, authenticated by the task token from the delivery (no Bearer)',
    request: { body: ['taskToken', 'result', 'error'] },
    response: { body: object({ data: object({ id: literal({ type: 'string' }), status: result('taskCallback') }) }) },
  }),
];
