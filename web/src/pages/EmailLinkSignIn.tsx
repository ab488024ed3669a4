// Where a mailed sign-in link lands (/sign-in/email#token=…). The token travels in the fragment, which
// browsers never send to a server or in a Referer, and is removed from the address bar at once. The page
// never signs in by itself: anyone can send a browser here with a link of their own (login CSRF), so it
// names the address the link signs in as, and the person signs in with a click. A browser already signed
// in says as whom, and stays so unless the person chooses to continue as the link's address.
import { useEffect, useState } from 'react';
import { rest, errorText } from '../api.js';
import { Link, navigate } from '../router.js';
import { ErrorNote, PageTitle } from '../components/ui.js';
import { refreshViewer, useViewer } from '../viewer.js';

// Read once per page load (React may run the effect twice; the address bar is cleared the first time).
let tokenOfThisLoad: string | null | undefined;

function takeToken(): string | null {
  if (tokenOfThisLoad === undefined) {
    tokenOfThisLoad = new URLSearchParams(location.hash.slice(1)).get('token');
    history.replaceState(null, '', '/sign-in/email');
  }
  return tokenOfThisLoad;
}

export function EmailLinkSignIn() {
  const viewer = useViewer();
  const [token] = useState(takeToken);
  const [email, setEmail] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(token ? null : 'This page needs the link from your mail.');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!token) return;
    rest<{ data: { email: string } }>('POST', '/v1/auth/email-link/describe', { token })
      .then((answer) => setEmail(answer.body.data.email))
      .catch((e: unknown) => setError(errorText(e)));
  }, [token]);

  const signIn = () => {
    setBusy(true);
    rest('POST', '/v1/auth/email-link/sign-in', { token })
      .then(() => refreshViewer())
      .then(() => navigate('/tasks', { replace: true }))
      .catch((e: unknown) => {
        setBusy(false);
        setError(errorText(e));
      });
  };

  if (error) {
    return (
      <section className="narrow">
        <PageTitle>Sign in by email</PageTitle>
        <ErrorNote error={error} />
        <p>
          <Link href="/sign-in">Ask for a new link</Link>
        </p>
      </section>
    );
  }
  if (!email || !viewer.loaded) {
    return (
      <section className="narrow">
        <PageTitle>Sign in by email</PageTitle>
        <p role="status">Checking your link…</p>
      </section>
    );
  }
  const current = viewer.user;
  return (
    <section className="narrow">
      <PageTitle>Sign in by email</PageTitle>
      {current ? (
        <>
          <p>
            You are signed in as <strong>{current.email}</strong>. This link signs in as <strong>{email}</strong>.
          </p>
          <p className="muted">If you did not open a link you asked for yourself, stay signed in.</p>
          <p>
            <button type="button" onClick={signIn} disabled={busy}>
              Continue as {email}
            </button>{' '}
            <button type="button" className="secondary" onClick={() => navigate('/tasks', { replace: true })} disabled={busy}>
              Stay signed in as {current.email}
            </button>
          </p>
        </>
      ) : (
        <>
          <p>
            This link signs you in as <strong>{email}</strong>.
          </p>
          <p className="muted">If this is not your address, close this page.</p>
          <button type="button" onClick={signIn} disabled={busy}>
            Sign in as {email}
          </button>
        </>
      )}
    </section>
  );
}
