import { graphql } from '../../generated/gql/index.js';
import { route } from '../route.js';
import { data } from '../shape.js';

// The webhook delivery payload's fields (docs/webhooks.md), then what a claim adds.
graphql(`
  fragment ClaimedTaskFields on ClaimedTask {
    type
    taskId
    taskToken
    title
    description
    input
    callbackUrl
    capabilities
    priority
    expiresAt
    inputHash
    round
    files
    lease {
      expiresAt
    }
  }
`);

export const pullRoutes = [
  route({
    method: 'POST',
    path: '/v1/agents/:id/tasks/claim',
    document: graphql(`
      mutation RestClaimTasks($agentId: ID!, $max: Int, $waitSeconds: Int, $leaseSeconds: Int) {
        claimTasks(agentId: $agentId, max: $max, waitSeconds: $waitSeconds, leaseSeconds: $leaseSeconds) {
          ...ClaimedTaskFields
        }
      }
    `),
    variables: (req) => ({ agentId: req.params.id! }),
    summary: "A pulling agent's long poll: claims tasks at once, or waits up to waitSeconds for one; [] when the wait ends",
    request: { body: ['max', 'waitSeconds', 'leaseSeconds'] },
    answer: { body: data('claimTasks') },
  }),
  route({
    method: 'POST',
    path: '/v1/agents/:id/tasks/:taskId/lease',
    document: graphql(`
      mutation RestExtendTaskLease($agentId: ID!, $taskId: ID!, $leaseSeconds: Int) {
        extendTaskLease(agentId: $agentId, taskId: $taskId, leaseSeconds: $leaseSeconds) {
          taskId
          lease {
            expiresAt
          }
        }
      }
    `),
    variables: (req) => ({ agentId: req.params.id!, taskId: req.params.taskId! }),
    summary: 'Extends the lease on a claimed task to leaseSeconds from now',
    request: { body: ['leaseSeconds'] },
    answer: { body: data('extendTaskLease') },
  }),
  route({
    method: 'POST',
    path: '/v1/agents/:id/tasks/:taskId/release',
    document: graphql(`
      mutation RestReleaseTask($agentId: ID!, $taskId: ID!) {
        releaseTask(agentId: $agentId, taskId: $taskId) {
          taskId
          released
        }
      }
    `),
    variables: (req) => ({ agentId: req.params.id!, taskId: req.params.taskId! }),
    summary: 'Gives a claimed task back; it is offered again at once',
    answer: { body: data('releaseTask') },
  }),
];
