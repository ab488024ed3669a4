// /v1/api-keys: a user's API keys with their scopes; the key itself is answered once, at creation.
import { graphql } from '../../generated/gql/index.js';
import { route } from '../route.js';
import { constant, data, object, result } from '../shape.js';

export const apiKeyRoutes = [
  route({
    method: 'POST',
    path: '/v1/api-keys',
    document: graphql(`
      mutation RestCreateApiKey($name: String, $scopes: [String!], $expiresAt: DateTime) {
        createApiKey(name: $name, scopes: $scopes, expiresAt: $expiresAt) {
          id
          name
          prefix
          scopes
          expiresAt
          apiKey
        }
      }
    `),
    summary: 'Create an API key (with scopes, or all of them; shown once)',
    request: { body: ['name', 'scopes', 'expiresAt'] },
    answer: { status: 201, body: data('createApiKey') },
  }),
  route({
    method: 'GET',
    path: '/v1/api-keys',
    document: graphql(`
      query RestApiKeys {
        apiKeys {
          id
          name
          prefix
          scopes
          createdAt
          lastUsedAt
          expiresAt
          revokedAt
        }
      }
    `),
    summary: 'The API keys of the caller (never the keys themselves)',
    answer: { body: data('apiKeys') },
  }),
  route({
    method: 'DELETE',
    path: '/v1/api-keys/:id',
    document: graphql(`
      mutation RestRevokeApiKey($id: ID!) {
        revokeApiKey(id: $id) {
          id
          revokedAt
        }
      }
    `),
    summary: 'Revoke an API key: it stops working at once, and its open streams close',
    answer: { body: object({ message: constant('API key revoked'), data: result('revokeApiKey') }) },
  }),
];
