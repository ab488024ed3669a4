import { graphql } from '../../generated/gql/index.js';
import { route } from '../route.js';
import { data } from '../shape.js';

graphql(`
  fragment DeliveryFields on Delivery {
    id
    taskId
    status
    type
    attemptCount
    nextAttemptAt
    createdAt
    attempts {
      number
      at
      statusCode
      latencyMs
      error
    }
  }
`);

export const deliveryRoutes = [
  route({
    method: 'GET',
    path: '/v1/agents/:id/deliveries',
    document: graphql(`
      query RestAgentDeliveries($agentId: ID!, $limit: Int) {
        agentDeliveries(agentId: $agentId, limit: $limit) {
          ...DeliveryFields
        }
      }
    `),
    variables: (req) => ({ agentId: req.params.id! }),
    summary: 'The delivery log of an agent, with every attempt',
    request: { query: { limit: 'limit' } },
    answer: { body: data('agentDeliveries') },
  }),
  route({
    method: 'POST',
    path: '/v1/agents/:id/deliveries/:deliveryId/redeliver',
    document: graphql(`
      mutation RestRedeliver($agentId: ID!, $deliveryId: ID!) {
        redeliver(agentId: $agentId, deliveryId: $deliveryId) {
          ...DeliveryFields
        }
      }
    `),
    variables: (req) => ({ agentId: req.params.id!, deliveryId: req.params.deliveryId! }),
    summary: 'Deliver a still-matched task again now',
    answer: { status: 202, body: data('redeliver') },
  }),
];
