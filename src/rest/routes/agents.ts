import { graphql } from '../../generated/gql/index.js';
import { route } from '../route.js';

graphql(`
  fragment AgentOwnerFields on Agent {
    id
    name
    slug
    description
    longDescription
    endpoint
    protocols
    categories
    capabilities
    tags
    docsUrl
    manifestUrl
    authType
    version
    inputSchema
    twitterUrl
    status
    verified
    healthStatus
    trustScore
    trustTier
    hasWebhookSecret
    priceCents
    taskCount
    avgRating
    createdAt
    updatedAt
  }
`);

export const agentRoutes = [
  route({
    method: 'GET',
    path: '/v1/agents',
    document: graphql(`
      query RestListAgents {
        myAgents {
          ...AgentOwnerFields
        }
      }
    `),
    respond: (data) => ({ body: { data: data.myAgents } }),
  }),
  route({
    method: 'POST',
    path: '/v1/agents',
    document: graphql(`
      mutation RestCreateAgent($input: AgentCreateInput!) {
        createAgent(input: $input) {
          ...AgentOwnerFields
        }
      }
    `),
    variables: (req) => ({ input: (req.body ?? {}) as never }),
    respond: (data) => ({ status: 201, body: { data: data.createAgent } }),
  }),
  route({
    method: 'GET',
    path: '/v1/agents/:id',
    document: graphql(`
      query RestGetAgent($id: ID!) {
        myAgent(id: $id) {
          ...AgentOwnerFields
        }
      }
    `),
    variables: (req) => ({ id: req.params.id! }),
    respond: (data) => ({ body: { data: data.myAgent } }),
  }),
  route({
    method: 'PUT',
    path: '/v1/agents/:id',
    document: graphql(`
      mutation RestUpdateAgent($id: ID!, $input: AgentUpdateInput!) {
        updateAgent(id: $id, input: $input) {
          ...AgentOwnerFields
        }
      }
    `),
    variables: (req) => ({ id: req.params.id!, input: (req.body ?? {}) as never }),
    respond: (data) => ({ body: { data: data.updateAgent } }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/agents/:id',
    document: graphql(`
      mutation RestDeleteAgent($id: ID!) {
        deleteAgent(id: $id) {
          message
        }
      }
    `),
    variables: (req) => ({ id: req.params.id! }),
    respond: (data) => ({ body: { message: data.deleteAgent.message } }),
  }),
  route({
    method: 'POST',
    path: '/v1/agents/:id/webhook-secret',
    document: graphql(`
      mutation RestRotateWebhookSecret($id: ID!) {
        rotateAgentWebhookSecret(id: $id) {
          webhookSecret
          message
        }
      }
    `),
    variables: (req) => ({ id: req.params.id! }),
    respond: (data) => ({ body: data.rotateAgentWebhookSecret }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/agents/:id/webhook-secret',
    document: graphql(`
      mutation RestRemoveWebhookSecret($id: ID!) {
        removeAgentWebhookSecret(id: $id) {
          id
          hasWebhookSecret
        }
      }
    `),
    variables: (req) => ({ id: req.params.id! }),
    respond: (data) => ({
      body: { message: 'Webhook secret removed; deliveries are no longer signed', data: data.removeAgentWebhookSecret },
    }),
  }),
];
