import { graphql } from '../../generated/gql/index.js';
import { route } from '../route.js';
import { data, literal, object, result } from '../shape.js';

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
    summary: 'Your agents',
    response: { body: data('myAgents') },
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
    summary: 'Create an agent',
    request: { body: 'input' },
    response: { status: 201, body: data('createAgent') },
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
    summary: 'One of your agents',
    response: { body: data('myAgent') },
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
    summary: 'Change an agent (a new name changes the slug; the old slug keeps resolving)',
    request: { body: 'input' },
    response: { body: data('updateAgent') },
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
    summary: 'Delete an agent (409 while it has unfinished tasks)',
    response: { body: object({ message: result('deleteAgent.message') }) },
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
    summary: 'Generate or rotate the webhook secret (shown once)',
    response: { body: result('rotateAgentWebhookSecret') },
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
    summary: 'Remove the webhook secret; deliveries are no longer signed',
    response: { body: object({ message: literal({ type: 'string' }), data: result('removeAgentWebhookSecret') }) },
  }),
];
