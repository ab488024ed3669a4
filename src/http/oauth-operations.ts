// The OpenAPI operations of OAuth's endpoints and discovery documents (http/oauth-routes.ts). Their
// errors are RFC 6749's own shape, not the API's envelope.
import type { OpenApiOperation } from './route.js';

const OAUTH_ERROR = {
  type: 'object',
  properties: {
    error: { type: 'string', description: 'RFC 6749 section 5.2: invalid_request, invalid_client, invalid_grant, invalid_scope, unsupported_grant_type, invalid_client_metadata, invalid_redirect_uri, …' },
    error_description: { type: 'string' },
  },
  required: ['error', 'error_description'],
  additionalProperties: false,
};

const oauthError = (description: string) => ({ description, content: { 'application/json': { schema: OAUTH_ERROR } } });
const json = (description: string, schema: Record<string, unknown>) => ({ description, content: { 'application/json': { schema } } });
const form = (properties: Record<string, unknown>, required: string[]) => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties, required } } },
});
const text = { type: 'string' };

const ERRORS = {
  '400': oauthError('The request is malformed or the grant does not hold'),
  '401': oauthError('No such app (invalid_client)'),
  '413': oauthError('The body is over 16 KiB (invalid_request)'),
  '429': oauthError('Over the rate limit of the address; Retry-After says when to come back'),
};

const TOKENS = {
  type: 'object',
  properties: {
    access_token: text,
    token_type: { type: 'string', const: 'Bearer' },
    expires_in: { type: 'integer' },
    refresh_token: text,
    scope: text,
  },
  required: ['access_token', 'token_type', 'expires_in'],
};

const discovery = (operationId: string, summary: string, properties: Record<string, unknown>): OpenApiOperation => ({
  operationId,
  summary,
  tags: ['oauth'],
  security: [],
  responses: { '200': json(summary, { type: 'object', properties, required: Object.keys(properties) }) },
});
const url = { type: 'string', format: 'uri' };

export const oauthOperations = {
  authorizationServer: discovery('OAuthAuthorizationServerMetadata', 'Authorization server metadata (RFC 8414)', {
    issuer: url,
    authorization_endpoint: url,
    token_endpoint: url,
  }),
  protectedResource: (path: string) =>
    discovery(`OAuthProtectedResourceMetadata${path.replace(/\W/g, '').toUpperCase()}`, `Protected resource metadata (RFC 9728) of ${path || 'the API'}`, {
      resource: url,
      authorization_servers: { type: 'array', items: url },
    }),
  register: {
    operationId: 'OAuthRegister',
    summary: 'Register an app (RFC 7591 dynamic client registration)',
    tags: ['oauth'],
    security: [],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', properties: { client_name: text, redirect_uris: { type: 'array', items: text, minItems: 1, maxItems: 10 } }, required: ['redirect_uris'] },
        },
      },
    },
    responses: { '201': json('The registered app', { type: 'object', properties: { client_id: text }, required: ['client_id'] }), ...ERRORS },
  },
  token: {
    operationId: 'OAuthToken',
    summary: 'Exchange an authorization code (PKCE) or a refresh token for tokens',
    tags: ['oauth'],
    security: [],
    requestBody: form(
      { grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] }, client_id: text, code: text, code_verifier: text, redirect_uri: text, refresh_token: text, resource: text },
      ['grant_type', 'client_id'],
    ),
    responses: { '200': json('The tokens', TOKENS), ...ERRORS },
  },
  revoke: {
    operationId: 'OAuthRevoke',
    summary: 'Revoke an access or refresh token (RFC 7009)',
    tags: ['oauth'],
    security: [],
    requestBody: form({ token: text, client_id: text }, ['token', 'client_id']),
    responses: { '200': json('Revoked (or never valid)', { type: 'object' }), ...ERRORS },
  },
} satisfies Record<string, OpenApiOperation | ((path: string) => OpenApiOperation)>;
