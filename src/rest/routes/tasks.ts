import { graphql } from '../../generated/gql/index.js';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { route } from '../route.js';
import { data, list, merge, nullable, object, param, result } from '../shape.js';

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
      cardBrand
      cardLast4
      heldAt
      settledAt
    }
    reviewWindowSeconds
    requirements
    routing {
      status
      agentId
      reason
    }
    routingExplanation
    inputHash
    resultHash
    receipt
    inputRequest
    inputRounds
    reviewEndsAt
    approvedBy
    disputeReason
    disputeStatement
    disputeContestedAt
    disputeAnswerBy
  }
`);

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
    summary,
    ...(bodyFields.length ? { request: { body: bodyFields } } : {}),
    answer: { body: data(field) },
  });
}

// The routes other transports run by name (rest/routes/operations.ts).
export const createTask = route({
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
    return { idempotencyKey: (Array.isArray(key) ? key.join(',') : key) ?? null };
  },
  summary: 'Submit a task; it is routed, paid for and delivered',
  request: { body: 'input' },
  answer: {
    status: 201,
    body: object(
      {
        data: result('createTask.task'),
        payment: nullable(
          merge(result('createTask.task.payment'), object({ autoCharged: result('createTask.autoCharged'), clientSecret: result('createTask.clientSecret') }, ['clientSecret'])),
        ),
        clientSecret: result('createTask.clientSecret', 'The card hold to confirm, when no saved card was charged'),
        routing: result('createTask.task.routing', 'routed to an agent, or waiting for one and why (e.g. no active agent offers the capability)'),
      },
      ['clientSecret'],
    ),
  },
});

export const listTasks = route({
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
  summary: 'Your tasks, as requester or as agent owner, newest first',
  request: { query: { role: 'role', status: 'status', limit: 'limit', cursor: 'cursor' } },
  answer: { body: object({ data: result('tasks.data'), nextCursor: result('tasks.nextCursor') }) },
});

export const getTask = route({
  method: 'GET',
  path: '/v1/tasks/:id',
  document: graphql(`
    query RestGetTask($id: ID!) {
      task(id: $id) {
        ...TaskFields
      }
    }
  `),
  summary: 'One task (its requester or the assigned agent’s owner)',
  answer: { body: data('task') },
});

export const cancelTask = move('POST', 'cancel', graphql(`
  mutation RestCancelTask($id: ID!) {
    cancelTask(id: $id) {
      ...TaskFields
    }
  }
`), 'cancelTask', 'Cancel the task (its requester)');

export const provideTaskInput = move('POST', 'input', graphql(`
  mutation RestProvideTaskInput($id: ID!, $input: JSON!) {
    provideTaskInput(id: $id, input: $input) {
      ...TaskFields
    }
  }
`), 'provideTaskInput', 'Answer the agent’s input request (the requester); the task goes back to in_progress', ['input']);

export const taskRoutes = [
  createTask,
  listTasks,
  route({
    method: 'POST',
    path: '/v1/tasks/route',
    document: graphql(`
      mutation RestRouteTask($input: RouteInput!) {
        explainRoute(input: $input) {
          candidates {
            score
            terms {
              term
              value
              weight
            }
            agent {
              ...DiscoveryItemFields
              priceCents
              trustTier
              healthStatus
            }
          }
          passedOver {
            reasons
            agent {
              id
              name
              slug
            }
          }
        }
      }
    `),
    summary: 'The agents a task would go to, best first, with each term of their score, and the agents passed over with why; creates nothing',
    request: { body: 'input' },
    answer: {
      body: object({
        data: list('explainRoute.candidates', merge(result('agent'), object({ score: result('score'), terms: result('terms') }))),
        passedOver: list('explainRoute.passedOver', merge(result('agent'), object({ reasons: result('reasons') }))),
      }),
    },
  }),
  getTask,
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
  cancelTask,
  route({
    method: 'POST',
    path: '/v1/tasks/:id/request-input',
    document: graphql(`
      mutation RestRequestTaskInput($id: ID!, $input: InputRequestInput!) {
        requestTaskInput(id: $id, input: $input) {
          ...TaskFields
        }
      }
    `),
    summary: 'Ask the requester for more input (the assigned agent’s owner); the task waits in input_required',
    request: { body: 'input' },
    answer: { body: data('requestTaskInput') },
  }),
  provideTaskInput,
  move('POST', 'approve', graphql(`
    mutation RestApproveTask($id: ID!) {
      approveTask(id: $id) {
        ...TaskFields
      }
    }
  `), 'approveTask', 'Approve a delivered result (the requester); the payment is taken'),
  move('POST', 'reject', graphql(`
    mutation RestRejectTask($id: ID!, $reason: String!) {
      rejectTask(id: $id, reason: $reason) {
        ...TaskFields
      }
    }
  `), 'rejectTask', 'Reject a delivered result with a reason (the requester); the task becomes disputed', ['reason']),
  move('POST', 'refund', graphql(`
    mutation RestRefundTask($id: ID!) {
      refundTask(id: $id) {
        ...TaskFields
      }
    }
  `), 'refundTask', 'Refund a disputed task (the assigned agent’s owner); the hold is released or the credit given back'),
  move('POST', 'contest', graphql(`
    mutation RestContestTask($id: ID!, $statement: String!) {
      contestTask(id: $id, statement: $statement) {
        ...TaskFields
      }
    }
  `), 'contestTask', 'Contest a dispute with a statement (the assigned agent’s owner); an operator settles it', ['statement']),
  route({
    method: 'GET',
    path: '/v1/tasks/:id/history',
    document: graphql(`
      query RestTaskHistory($id: ID!) {
        task(id: $id) {
          history {
            at
            actor
            actorId
            action
            fromStatus
            toStatus
            note
            data
          }
        }
      }
    `),
    summary: 'Every step of the task, oldest first: who, when, why (its requester or the assigned agent’s owner)',
    answer: { body: object({ data: result('task.history') }) },
  }),
  route({
    method: 'POST',
    path: '/v1/tasks/:id/callback',
    public: true,
    document: graphql(`
      mutation RestTaskCallback($id: ID!, $taskToken: String!, $result: JSON, $error: String, $inputRequired: InputRequestInput) {
        taskCallback(id: $id, taskToken: $taskToken, result: $result, error: $error, inputRequired: $inputRequired)
      }
    `),
    summary: 'The agent’s answer, authenticated by the task token from the delivery (no Bearer): a result, an error, or a request for input',
    request: { body: ['taskToken', 'result', 'error', 'inputRequired'] },
    answer: { body: object({ data: object({ id: param('id'), status: result('taskCallback') }) }) },
  }),
];
