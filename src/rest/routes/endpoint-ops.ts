import { graphql } from '../../generated/gql/index.js';
import { route } from '../route.js';
import { data, object, result } from '../shape.js';

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

  route({
    method: 'POST',
    path: '/v1/agents/:id/endpoint/enable',
    document: graphql(`
      mutation RestEnableAgentEndpoint($agentId: ID!) {
        enableAgentEndpoint(agentId: $agentId) {
          ...AgentOwnerFields
        }
      }
    `),
    variables: (req) => ({ agentId: req.params.id! }),
    summary: 'Enable a disabled endpoint again (409 until a test ping succeeded since it was disabled)',
    answer: { body: data('enableAgentEndpoint') },
  }),
  route({
    method: 'PUT',
    path: '/v1/account',
    document: graphql(`
      mutation RestUpdateAccount($input: AccountUpdateInput!) {
        updateAccount(input: $input) {
          notificationUrl
          notificationSecret
          message
        }
      }
    `),
    summary: 'Set notificationUrl for operational events (the signing secret is shown once, when first made)',
    request: { body: 'input' },
    answer: { body: object({ data: object({ notificationUrl: result('updateAccount.notificationUrl') }), notificationSecret: result('updateAccount.notificationSecret'), message: result('updateAccount.message') }, ['notificationSecret']) },
  }),
  route({
    method: 'GET',
    path: '/v1/notifications',
    document: graphql(`
      query RestMyNotifications($limit: Int) {
        myNotifications(limit: $limit) {
          id
          type
          agentId
          data
          status
          attemptCount
          lastError
          createdAt
        }
      }
    `),
    summary: "Operational events about your agents, newest first",
    request: { query: { limit: 'limit' } },
    answer: { body: data('myNotifications') },
  }),
];
