// Creating an account: a name, an email and a passkey made on this device. Where the operator closed
// sign-up (SIGNUP=closed), accounts come from the server's CLI.
import { useState, type FormEvent } from 'react';
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { rest, errorText } from '../api.js';
import { Link, navigate } from '../router.js';
import { ErrorNote, PageTitle, Skeleton } from '../components/ui.js';
import { refreshViewer } from '../viewer.js';
import { useAuthOptions } from '../auth-options.js';

export function SignUp() {
  const options = useAuthOptions();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function create(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const { body } = await rest<{ data: PublicKeyCredentialCreationOptionsJSON }>('POST', '/v1/auth/sign-up/options', { name: name.trim(), email: email.trim() });
      const credential = await startRegistration({ optionsJSON: body.data });
      await rest('POST', '/v1/auth/sign-up', { credential });
      await refreshViewer();
      navigate('/welcome');
    } catch (e) {
      setError(`Sign-up failed: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  }

  if (!options) return <Skeleton what="sign-up form" />;
  return (
    <section className="narrow">
      <PageTitle>Sign up</PageTitle>
      {options.signup === 'closed' ? (
        <p className="note">
          Accounts on this server are made by its operator. Already have one? <Link href="/sign-in">Sign in</Link>.
        </p>
      ) : (
        <>
          <form onSubmit={(e) => void create(e)}>
            <div className="field">
              <label htmlFor="sign-up-name">Name</label>
              <input id="sign-up-name" autoComplete="name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="sign-up-email">Email</label>
              <input id="sign-up-email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
            </div>
            <p className="hint">Your device will ask to create a passkey for this site: you sign in with it, no password.</p>
            <button type="submit" disabled={busy}>
              Create account with a passkey
            </button>
          </form>
          <ErrorNote error={error} />
          <p>
            Have an account? <Link href="/sign-in">Sign in</Link>.
          </p>
        </>
      )}
    </section>
  );
}
