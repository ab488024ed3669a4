// The WWW-Authenticate answer of a 401 from /mcp or /a2a: where the protected resource metadata
// (RFC 9728) is, so an MCP host can discover the authorization server from nothing but the URL.
export function bearerChallenge(baseUrl: string, resourcePath: '/mcp' | '/a2a', error?: 'invalid_token'): string {
  const metadata = `${baseUrl.replace(/\/+$/, '')}/.well-known/oauth-protected-resource${resourcePath}`;
  return `Bearer ${error ? `error="${error}", ` : ''}resource_metadata="${metadata}"`;
}
