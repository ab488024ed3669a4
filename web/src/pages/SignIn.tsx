// Signing in: with a passkey (the browser offers this site's passkeys; no email typed), with a link
// mailed to the address, or, for operators and scripts, with an API key that the service exchanges for a
// session cookie. The page keeps no credential: the cookie is HttpOnly and set by the service.
import { useState, type FormEvent } from 'react';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { rest, errorText } from '../api.js';
import { Link, navigate } from '../router.js';
import { ErrorNote, PageTitle } from '../components/ui.js';
import { refreshViewer } from '../viewer.js';
import { useAuthOptions } from '../auth-options.js';

const jwtSignIn = document.querySelector('meta[name="tm-jwt-sign-in"]')?.getAttribute('content') === 'on';

// Where to go once signed in: the page that asked (?next=, a path on this site only, such as the
// consent page of an app being connected), else the tasks.
function nextPath(): string {
  const next = new URLSearchParams(location.search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/tasks';
}

async function finish() {
  await refreshViewer();
  navigate(nextPath());
}

export function SignIn() {
  const options = useAuthOptions();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function attempt(what: string, run: () => Promise<void>) {
    setError(null);
    setBusy(true);
    try {
      await run();
    } catch (e) {
      setError(`${what} failed: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  }

  const withPasskey = () =>
    attempt('Signing in with a passkey', async () => {
      const { body } = await rest<{ data: PublicKeyCredentialRequestOptionsJSON }>('POST', '/v1/auth/passkey/options');
      const credential = await startAuthentication({ optionsJSON: body.data });
      await rest('POST', '/v1/auth/passkey', { credential });
      await finish();
    });

  return (
    <section className="narrow">
      <PageTitle>Sign in</PageTitle>
      <section aria-labelledby="with-passkey">
        <h2 id="with-passkey">With a passkey</h2>
        <button type="button" disabled={busy} onClick={() => void withPasskey()}>
          Sign in with a passkey
        </button>
      </section>
      {options && options.emailLinks !== 'off' && <EmailLinkForm delivery={options.emailLinks} />}
      <ErrorNote error={error} />
      {options?.signup === 'open' && (
        <p>
          No account yet? <Link href="/sign-up">Sign up</Link>.
        </p>
      )}
      <KeyForms />
    </section>
  );
}

function EmailLinkForm({ delivery }: { delivery: 'mail' | 'log' }) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function send(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setSent(null);
    try {
      await rest('POST', '/v1/auth/email-link', { email: email.trim() });
      setSent(
        delivery === 'log'
          ? `This server sends no mail (no SMTP_URL): the link for ${email.trim()} is printed in the server's log. It works once, within 15 minutes.`
          : `If ${email.trim()} can sign in here, a link is on its way. It works once, within 15 minutes.`,
      );
    } catch (e) {
      setError(errorText(e));
    }
  }

  return (
    <section aria-labelledby="with-email">
      <h2 id="with-email">With a link by email</h2>
      {delivery === 'log' && <p className="hint">Development server: links are printed in the server's log instead of mailed.</p>}
      <form onSubmit={(e) => void send(e)}>
        <div className="field">
          <label htmlFor="sign-in-email">Email</label>
          <input id="sign-in-email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <button type="submit">Email me a link</button>
      </form>
      {sent && (
        <p className="note" role="status">
          {sent}
        </p>
      )}
      <ErrorNote error={error} />
    </section>
  );
}

// For development, operators and scripts: a key (or an identity provider's access token) is exchanged for
// a session cookie; the field is emptied and the key is not kept.
function KeyForms() {
  const [apiKey, setApiKey] = useState('');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function exchange(event: FormEvent, credential: string, clear: () => void) {
    event.preventDefault();
    setError(null);
    const value = credential.trim();
    if (!value) return setError('Paste a credential first.');
    try {
      await rest('POST', '/v1/auth/api-key-session', { apiKey: value });
      clear();
      await finish();
    } catch (e) {
      setError(`Sign-in failed: ${errorText(e)}`);
    }
  }

  return (
    <section aria-labelledby="with-key">
      <h2 id="with-key">For operators and scripts</h2>
      <form onSubmit={(e) => void exchange(e, apiKey, () => setApiKey(''))}>
        <div className="field">
          <label htmlFor="api-key">API key</label>
          <input id="api-key" type="password" autoComplete="off" value={apiKey} placeholder="tmk_…" onChange={(e) => setApiKey(e.target.value)} aria-describedby="api-key-hint" />
          <small id="api-key-hint" className="hint">
            Exchanged for a browser session; the key is not kept. Keys are made on your account page, or by the
            service's operator.
          </small>
        </div>
        <button type="submit">Sign in</button>
      </form>
      {jwtSignIn && (
        <form onSubmit={(e) => void exchange(e, token, () => setToken(''))}>
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
