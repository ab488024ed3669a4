// The OAuth consent page (/oauth/authorize): names the app, the host it sends you back to and what it
// asks to do (also before sign-in), with Allow and Deny. The person may uncheck scopes: the app is then
// granted only those left (the token's `scope` says which). A request naming an unknown app or an
// unregistered redirect_uri is shown as an error here and never followed.
import { useEffect, useState } from 'react';
import { gql, errorText } from '../api.js';
import { DecideOAuthAuthorizationMutation, OAuthAuthorizationQuery } from '../documents.js';
import type { DashOAuthAuthorizationQuery, OAuthAuthorizationRequest } from '../generated/gql/graphql.js';
import { ErrorNote, PageTitle, SignInFirst, Skeleton } from '../components/ui.js';
import { scopeWords } from '../scope-words.js';
import { useViewer } from '../viewer.js';

function requestOf(search: URLSearchParams): OAuthAuthorizationRequest {
  return {
    responseType: search.get('response_type'),
    clientId: search.get('client_id'),
    redirectUri: search.get('redirect_uri'),
    codeChallenge: search.get('code_challenge'),
    codeChallengeMethod: search.get('code_challenge_method'),
    scope: search.get('scope'),
    state: search.get('state'),
    resource: search.get('resource'),
  };
}

export function Consent() {
  const [request] = useState(() => requestOf(new URLSearchParams(location.search)));
  const [prompt, setPrompt] = useState<DashOAuthAuthorizationQuery['oauthAuthorization'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [unchecked, setUnchecked] = useState<string[]>([]);
  const viewer = useViewer();

  useEffect(() => {
    gql(OAuthAuthorizationQuery, { request }).then(
      (d) => {
        // The app asked for something it may not (plain PKCE, an unknown scope): it hears so on its own URI.
        if (d.oauthAuthorization.redirectTo) return void location.assign(d.oauthAuthorization.redirectTo);
        setPrompt(d.oauthAuthorization);
      },
      (e) => setError(errorText(e)),
    );
  }, [request]);

  async function decide(allow: boolean) {
    setBusy(true);
    try {
      // Narrowed only when something was unchecked (and Allow stays off while nothing is left), so the
      // request's own scope (none: all) is never turned into an empty one.
      const granted = (prompt?.scopes ?? []).filter((scope) => !unchecked.includes(scope));
      const narrowed = allow && unchecked.length > 0 && granted.length > 0 ? { ...request, scope: granted.join(' ') } : request;
      const d = await gql(DecideOAuthAuthorizationMutation, { request: narrowed, allow });
      location.assign(d.decideOAuthAuthorization);
    } catch (e) {
      setBusy(false);
      setError(errorText(e));
    }
  }

  if (error) {
    return (
      <section>
        <PageTitle>This app cannot connect</PageTitle>
        <ErrorNote error={error} />
      </section>
    );
  }
  if (!prompt) return <Skeleton what="request" />;
  return (
    <section aria-labelledby="consent">
      <PageTitle>
        <span id="consent">Connect {prompt.appName}?</span>
      </PageTitle>
      <p>
        <strong>{prompt.appName}</strong> wants to act for you in the marketplace. After you answer you go back to{' '}
        <strong>{prompt.redirectHost}</strong>.
      </p>
      {!viewer.user ? (
        viewer.loaded && <SignInFirst what={`connect ${prompt.appName}`} />
      ) : (
        <>
          <fieldset>
            <legend>It asks to (uncheck what it should not do)</legend>
            <ul className="check-list">
              {prompt.scopes?.map((scope) => (
                <li key={scope}>
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={!unchecked.includes(scope)}
                      onChange={() => setUnchecked((now) => (now.includes(scope) ? now.filter((s) => s !== scope) : [...now, scope]))}
                    />
                    <span>
                      <code>{scope}</code> {scopeWords[scope] ?? ''}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          {prompt.scopes && unchecked.length === prompt.scopes.length && (
            <p className="note" role="status">
              Nothing is left to allow: check at least one, or deny.
            </p>
          )}
          <p className="note">You can disconnect it at any time on your account page.</p>
          <div className="inline-form">
            <button type="button" disabled={busy || (prompt.scopes?.length ?? 0) === unchecked.length} onClick={() => void decide(true)}>
              Allow
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={() => void decide(false)}>
              Deny
            </button>
          </div>
        </>
      )}
    </section>
  );
}
