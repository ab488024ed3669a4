// Access tokens are JWTs from an identity provider, checked against its published keys (JWKS).
import type { JWTPayload } from 'jose';
import { lazyImport } from '../load-package.js';

export type JwtVerifier = (token: string) => Promise<JWTPayload & { sub: string }>;

// jose is loaded with the first token checked (only services that accept outside JWTs check any).
export const loadJose = lazyImport(() => import('jose'));

export function createJwtVerifier(opts: { jwksUrl: string; issuer: string; audience: string | null }): JwtVerifier {
  let keys: ReturnType<typeof import('jose').createRemoteJWKSet> | undefined;
  return async (token) => {
    const { createRemoteJWKSet, jwtVerify } = await loadJose();
    keys ??= createRemoteJWKSet(new URL(opts.jwksUrl));
    const { payload } = await jwtVerify(token, keys, {
      issuer: opts.issuer,
      ...(opts.audience ? { audience: opts.audience } : {}),
    });
    if (!payload.sub) throw new Error('token has no subject');
    return payload as JWTPayload & { sub: string };
  };
}

export const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);
