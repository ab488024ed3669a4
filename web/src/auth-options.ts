// What this server offers for signing in (GET /v1/auth/options): whether anyone may sign up, and how
// sign-in links travel (mailed, printed in the server's log in development, or not at all).
import { useEffect, useState } from 'react';
import { rest } from './api.js';

export interface AuthOptions {
  signup: 'open' | 'closed';
  emailLinks: 'mail' | 'log' | 'off';
}

let cached: Promise<AuthOptions> | null = null;

export function useAuthOptions(): AuthOptions | null {
  const [options, setOptions] = useState<AuthOptions | null>(null);
  useEffect(() => {
    cached ??= rest<{ data: AuthOptions }>('GET', '/v1/auth/options').then((r) => r.body.data);
    cached.then(setOptions, () => setOptions({ signup: 'closed', emailLinks: 'off' }));
  }, []);
  return options;
}
