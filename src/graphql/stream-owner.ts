// Who holds an open subscription (graphql/live-streams.ts), from the caller's authentication.
import type { IncomingMessage } from 'node:http';
import type { Authentication } from '../services/accounts/authenticate.js';
import type { Admission } from '../http/admission.js';
import type { StreamOwner } from './live-streams.js';

export const TOO_MANY_SUBSCRIPTIONS = 'too many open subscriptions; close one first';

export function streamOwner(authentication: Authentication | undefined, req: IncomingMessage, admission: Admission): StreamOwner {
  return {
    userId: authentication?.viewer?.id ?? null,
    address: admission.address(req),
    // The key's, the session's or the app grant's id: revoking it ends the stream (live-streams.ts revokeKey).
    credentialId: authentication?.credential?.id ?? null,
    expiresAt: authentication?.expiresAt ?? null,
  };
}
