// What the service publishes about itself as an authorization server (RFC 8414) and as a protected
// resource (RFC 9728).
import { allScopes } from '../../auth/scopes.js';
import { base, type OAuthContext } from './context.js';

export function metadata(ctx: OAuthContext) {
  const issuer = base(ctx);
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    scopes_supported: [...allScopes],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
  };
}

// RFC 9728 for the API as a whole, or for one of its endpoints (/mcp).
export function resourceMetadata(ctx: OAuthContext, path: string) {
  return {
    resource: `${base(ctx)}${path}`,
    authorization_servers: [base(ctx)],
    scopes_supported: [...allScopes],
    bearer_methods_supported: ['header'],
    resource_name: 'Task marketplace',
  };
}

export const resourceMetadataUrl = (ctx: OAuthContext, path = '') => `${base(ctx)}/.well-known/oauth-protected-resource${path}`;
