import { graphql } from '../../generated/gql/index.js';
import { route } from '../route.js';
import { constant, data, object, result } from '../shape.js';

graphql(`
  fragment AgentOwnerFields on Agent {
    id
    name
    slug
    description
    longDescription
    endpoint
    deliveryMode
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
    previousWebhookSecretExpiresAt
    signingPublicKey
    previousSigningPublicKey
    previousSigningKeyExpiresAt
    deliveryState
    endpointFailingSince
    endpointDisabledAt
    maxConcurrentTasks
    maxDeliveriesPerSecond
    priceCents
    taskCount
    avgRating
    cardVerified
    cardFetchedAt
    iconUrl
    provider {
      organization
      url
    }
    streaming
    pushNotifications
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
    summary: 'Your agents',
    answer: { body: data('myAgents') },
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
    summary: 'Create an agent',
    request: { body: 'input' },
    answer: { status: 201, body: data('createAgent') },
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
    summary: 'One of your agents',
    answer: { body: data('myAgent') },
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
    summary: 'Change an agent (a new name changes the slug; the old slug keeps resolving)',
    request: { body: 'input' },
    answer: { body: data('updateAgent') },
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
    summary: 'Delete an agent (409 while it has unfinished tasks)',
    answer: { body: object({ message: result('deleteAgent.message') }) },
  }),
  route({
    method: 'POST',
    path: '/v1/agents/:id/webhook-secret',
    document: graphql(`
      mutation RestRotateWebhookSecret($id: ID!, $graceSeconds: Int) {
        rotateAgentWebhookSecret(id: $id, graceSeconds: $graceSeconds) {
          webhookSecret
          previousSecretExpiresAt
          message
        }
      }
    `),
    summary: 'Generate or rotate the webhook secret (shown once); the old one also signs for graceSeconds',
    request: { body: ['graceSeconds'] },
    answer: { body: result('rotateAgentWebhookSecret') },
  }),
  route({
    method: 'POST',
    path: '/v1/agents/:id/signing-key',
    document: graphql(`
      mutation RestRotateSigningKey($id: ID!, $graceSeconds: Int) {
        rotateAgentSigningKey(id: $id, graceSeconds: $graceSeconds) {
          signingPublicKey
          previousSigningPublicKey
          previousKeyExpiresAt
        }
      }
    `),
    summary: "Make or rotate the agent's v1a (Ed25519) key pair; the old key also signs for graceSeconds",
    request: { body: ['graceSeconds'] },
    answer: { body: data('rotateAgentSigningKey') },
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
    summary: 'Remove the webhook secret; deliveries are no longer signed',
    answer: { body: object({ message: constant('Webhook secret removed; deliveries are no longer signed'), data: result('removeAgentWebhookSecret') }) },
  }),
];
