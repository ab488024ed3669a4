import { graphql } from '../../generated/gql/index.js';
import { route } from '../route.js';
import { data } from '../shape.js';

export const endpointOpsRoutes = [
  route({
    method: 'POST',
    path: '/v1/agents/:id/webhook/test',
    document: graphql(`
      mutation RestTestAgentWebhook($agentId: ID!) {
        testAgentWebhook(agentId: $agentId) {
          ok
          statusCode
          latencyMs
          error
          bodyStart
          signed
          at
        }
      }
    `),
    variables: (req) => ({ agentId: req.params.id! }),
    summary: 'Send a signed ping to the agent: status, latency and the start of its answer',
    answer: { body: data('testAgentWebhook') },
  }),
  route({
    method: 'POST',
    path: '/v1/agents/:id/webhook/check',
    document: graphql(`
      mutation RestCheckAgentWebhook($agentId: ID!) {
        checkAgentWebhook(agentId: $agentId) {
          verifiesSignatures
          acceptedValid
          refusedWrongSignature
          refusedStaleTimestamp
          requests {
            case
            statusCode
            latencyMs
            error
          }
        }
      }
    `),
    variables: (req) => ({ agentId: req.params.id! }),
    summary: 'Check that the agent verifies signatures: valid, wrongly signed and stale requests',
    answer: { body: data('checkAgentWebhook') },
  }),

  route({
    method: 'POST',
    path: '/v1/agents/:id/deliveries/recover',
    document: graphql(`
      mutation RestRecoverDeliveries($agentId: ID!, $since: DateTime!, $until: DateTime) {
        recoverDeliveries(agentId: $agentId, since: $since, until: $until) {
          recovered
          deliveryIds
          since
          until
        }
      }
    `),
    variables: (req) => ({ agentId: req.params.id! }),
    summary: 'Send again the deliveries that failed between since and until, for tasks still open',
    request: { body: ['since', 'until'] },
    answer: { status: 202, body: data('recoverDeliveries') },
  }),
];
