// Where a mailed sign-in link lands (/sign-in/email#token=…). The token travels in the fragment, which
// browsers never send to a server or in a Referer; the page sends it once in a POST (so a mail scanner
// fetching the link signs nobody in) and removes it from the address bar.
import { useEffect, useState } from 'react';
import { rest, errorText } from '../api.js';
import { Link, navigate } from '../router.js';
import { ErrorNote, PageTitle } from '../components/ui.js';
import { refreshViewer } from '../viewer.js';

// Once per page load, even when React runs the effect twice.
let attempted = false;

export function EmailLinkSignIn() {
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (attempted) return;
    attempted = true;
    const token = new URLSearchParams(location.hash.slice(1)).get('token');
    history.replaceState(null, '', '/sign-in/email');
    if (!token) return setError('This page needs the link from your mail.');
    rest('POST', '/v1/auth/email-link/sign-in', { token })
      .then(() => refreshViewer())
      .then(() => navigate('/tasks', { replace: true }))
      .catch((e: unknown) => setError(errorText(e)));
  }, []);

  return (
    <section className="narrow">
      <PageTitle>Signing in</PageTitle>
      {error ? (
        <>
          <ErrorNote error={error} />
          <p>
            <Link href="/sign-in">Ask for a new link</Link>
          </p>
        </>
      ) : (
        <p role="status">Checking your link…</p>
      )}
    </section>
  );
}
