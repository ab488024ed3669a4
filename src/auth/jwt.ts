// Access tokens are JWTs from an identity provider, checked against its published keys (JWKS).
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

export type JwtVerifier = (token: string) => Promise<JWTPayload & { sub: string }>;

export function createJwtVerifier(opts: { jwksUrl: string; issuer: string; audience: string | null }): JwtVerifier {
  const keys = createRemoteJWKSet(new URL(opts.jwksUrl));
  return async (token) => {
    const { payload } = await jwtVerify(token, keys, {
      issuer: opts.issuer,
      ...(opts.audience ? { audience: opts.audience } : {}),
    });
    if (!payload.sub) throw new Error('token has no subject');
    return payload as JWTPayload & { sub: string };
  };
}

export const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);
