// Sign-in with an API key (or, where the service trusts an identity provider, an access token). The
// credential is checked with `me` before it is kept, and kept only for this browser tab's session.
import { useState, type FormEvent } from 'react';
import { gql, errorText, session } from '../api.js';
import { MeQuery } from '../documents.js';
import { navigate } from '../router.js';
import { ErrorNote, PageTitle } from '../components/ui.js';

const jwtSignIn = document.querySelector('meta[name="tm-jwt-sign-in"]')?.getAttribute('content') === 'on';

export function SignIn({ onSignedIn }: { onSignedIn: (email: string) => void }) {
  const [apiKey, setApiKey] = useState('');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function signIn(event: FormEvent, credential: string) {
    event.preventDefault();
    setError(null);
    const value = credential.trim();
    if (!value) return setError('Paste a credential first.');
    try {
      const { me } = await gql(MeQuery, undefined, { token: value });
      session.set(value);
      onSignedIn(me.email);
      navigate('/tasks');
    } catch (e) {
      setError(`Sign-in failed: ${errorText(e)}`);
    }
  }

  return (
    <section className="narrow">
      <PageTitle>Sign in</PageTitle>
      <form onSubmit={(e) => void signIn(e, apiKey)}>
        <div className="field">
          <label htmlFor="api-key">API key</label>
          <input id="api-key" type="password" autoComplete="off" value={apiKey} placeholder="tmk_…" onChange={(e) => setApiKey(e.target.value)} aria-describedby="api-key-hint" />
          <small id="api-key-hint" className="hint">
            Kept in this tab only, until it closes. No key yet? On the server run:
            <code className="block">npm run --silent cli -- user create --email you@example.com --name You --json</code>
          </small>
        </div>
        <button type="submit">Sign in</button>
      </form>
      {jwtSignIn && (
        <form onSubmit={(e) => void signIn(e, token)}>
          <div className="field">
            <label htmlFor="access-token">Access token from your identity provider</label>
            <textarea id="access-token" rows={3} className="mono" value={token} onChange={(e) => setToken(e.target.value)} />
          </div>
          <button type="submit">Sign in with token</button>
        </form>
      )}
      <ErrorNote error={error} />
    </section>
  );
}
