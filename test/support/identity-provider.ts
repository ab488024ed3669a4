// An identity provider on loopback: publishes its key as a JWKS and signs access tokens, as a real one would.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';

export const ISSUER = 'https://idp.test.invalid/';
export const AUDIENCE = 'task-marketplace-tests';

export interface IdentityProvider {
  // The service's settings that trust this provider.
  env: Record<string, string>;
  // Signed now; it expires at `exp` (seconds since the epoch), five minutes from now unless given.
  token(claims: { sub: string; email?: string; email_verified?: boolean; name?: string; exp?: number }): Promise<string>;
  close(): Promise<void>;
}

export async function startIdentityProvider(): Promise<IdentityProvider> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid: 'idp-key', alg: 'ES256', use: 'sig' };
  const server = createServer((req, res) => {
    if (req.url !== '/.well-known/jwks.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: { AUTH_JWKS_URL: `http://127.0.0.1:${port}/.well-known/jwks.json`, AUTH_ISSUER: ISSUER, AUTH_AUDIENCE: AUDIENCE },
    token: ({ sub, exp, ...rest }) =>
      new SignJWT(rest)
        .setProtectedHeader({ alg: 'ES256', kid: 'idp-key' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime(exp ?? Math.floor(Date.now() / 1000) + 300)
        .sign(privateKey),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
