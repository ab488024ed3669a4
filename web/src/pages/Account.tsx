// The account page: who I am, my passkeys, where I am signed in, and where operational events go.
// API keys and connected apps are their own sections (ApiKeys.tsx, ConnectedApps.tsx).
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { gql, rest, errorText } from '../api.js';
import { AccountQuery, UpdateAccountMutation } from '../documents.js';
import type { DashAccountQuery } from '../generated/gql/graphql.js';
import { navigate } from '../router.js';
import { ErrorNote, PageTitle, Skeleton } from '../components/ui.js';
import { refreshViewer } from '../viewer.js';
import { when } from '../format.js';
import { ApiKeys } from './ApiKeys.js';
import { ConnectedApps } from './ConnectedApps.js';

export function Account() {
  const [me, setMe] = useState<DashAccountQuery['me'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    gql(AccountQuery).then((d) => setMe(d.me), (e) => setError(errorText(e)));
  }, []);

  if (error) return <ErrorNote error={error} />;
  if (!me) return <Skeleton what="account" />;
  return (
    <section>
      <PageTitle>Account</PageTitle>
      <section aria-labelledby="profile">
        <h2 id="profile">Profile</h2>
        <dl className="facts">
          <div>
            <dt>Name</dt>
            <dd>{me.name ?? '—'}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{me.email}</dd>
          </div>
        </dl>
        {!me.emailProven && <ProveAddress email={me.email} />}
      </section>
      <Passkeys />
      <Sessions />
      <ApiKeys />
      <ConnectedApps />
      <NotificationUrl initial={me.notificationUrl ?? ''} />
    </section>
  );
}

// A passkey sign-up only claims its address: until a link mailed to it is opened in this session, a link
// opened in another browser gives that browser an account of its own and takes the address off this one.
function ProveAddress({ email }: { email: string }) {
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = () => {
    setError(null);
    rest('POST', '/v1/auth/email-link', { email })
      .then(() => setStatus(`A link is on its way to ${email}. Open it in this browser to prove the address is yours.`))
      .catch((e: unknown) => setError(errorText(e)));
  };
  return (
    <div className="note">
      <p>
        Your address is not proven yet. Until it is, signing in by a link to it from another browser makes a new account there and
        takes the address off this one.
      </p>
      <button type="button" onClick={send}>
        Email me a link to prove it
      </button>
      {status && <p role="status">{status}</p>}
      <ErrorNote error={error} />
    </div>
  );
}

interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

function Passkeys() {
  const [passkeys, setPasskeys] = useState<PasskeyView[] | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setPasskeys((await rest<{ data: PasskeyView[] }>('GET', '/v1/account/passkeys')).body.data);
    } catch (e) {
      setError(errorText(e));
    }
  }, []);
  useEffect(() => void load(), [load]);

  async function add(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setStatus(null);
    try {
      const { body } = await rest<{ data: PublicKeyCredentialCreationOptionsJSON }>('POST', '/v1/account/passkeys/options');
      const credential = await startRegistration({ optionsJSON: body.data });
      await rest('POST', '/v1/account/passkeys', { credential, name: name.trim() || undefined });
      setName('');
      setStatus('Passkey added.');
      await load();
    } catch (e) {
      setError(`Adding a passkey failed: ${errorText(e)}`);
    }
  }

  async function remove(passkey: PasskeyView) {
    setError(null);
    setStatus(null);
    try {
      await rest('DELETE', `/v1/account/passkeys/${encodeURIComponent(passkey.id)}`);
      setStatus(`Passkey “${passkey.name}” removed.`);
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  }

  return (
    <section aria-labelledby="passkeys">
      <h2 id="passkeys">Passkeys</h2>
      {passkeys && passkeys.length === 0 && <p className="note">No passkeys yet: add one to sign in without a key or a mailed link.</p>}
      <ul className="rows">
        {passkeys?.map((p) => (
          <li key={p.id}>
            <span>{p.name}</span>
            <span className="muted">
              added {when(p.createdAt)}
              {p.lastUsedAt ? ` · last used ${when(p.lastUsedAt)}` : ''}
            </span>
            <button type="button" className="link" onClick={() => void remove(p)} aria-label={`Remove passkey ${p.name}`}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form className="inline-form" onSubmit={(e) => void add(e)}>
        <label htmlFor="passkey-name">New passkey's name</label>
        <input id="passkey-name" maxLength={60} placeholder="Laptop" value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit">Add a passkey</button>
      </form>
      {status && (
        <p className="note" role="status">
          {status}
        </p>
      )}
      <ErrorNote error={error} />
    </section>
  );
}

interface SessionView {
  id: string;
  method: string;
  userAgent: string | null;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

const methodWords: Record<string, string> = { passkey: 'passkey', email_link: 'email link', api_key: 'API key', sign_up: 'sign-up' };

function Sessions() {
  const [sessions, setSessions] = useState<SessionView[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setSessions((await rest<{ data: SessionView[] }>('GET', '/v1/account/sessions')).body.data);
    } catch (e) {
      setError(errorText(e));
    }
  }, []);
  useEffect(() => void load(), [load]);

  async function end(session: SessionView) {
    setError(null);
    try {
      await rest('DELETE', `/v1/account/sessions/${encodeURIComponent(session.id)}`);
      if (session.current) return void (await leave());
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  }

  async function everywhere() {
    setError(null);
    try {
      await rest('DELETE', '/v1/account/sessions');
      await leave();
    } catch (e) {
      setError(errorText(e));
    }
  }

  async function leave() {
    await refreshViewer();
    navigate('/sign-in');
  }

  return (
    <section aria-labelledby="sessions">
      <h2 id="sessions">Where you are signed in</h2>
      <ul className="rows">
        {sessions?.map((s) => (
          <li key={s.id}>
            <span>{s.current ? 'This browser' : (s.userAgent ?? 'Unknown browser')}</span>
            <span className="muted">
              by {methodWords[s.method] ?? s.method} · since {when(s.createdAt)} · last seen {when(s.lastSeenAt)}
            </span>
            <button type="button" className="link" onClick={() => void end(s)} aria-label={s.current ? 'Sign out of this browser' : `Sign out of the session started ${when(s.createdAt)}`}>
              Sign out
            </button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => void everywhere()}>
        Sign out everywhere
      </button>
      <ErrorNote error={error} />
    </section>
  );
}

// Where operational events about my agents are POSTed (the events themselves are listed on My agents).
function NotificationUrl({ initial }: { initial: string }) {
  const [url, setUrl] = useState(initial);
  const [secret, setSecret] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setSaved(false);
    try {
      const r = (await gql(UpdateAccountMutation, { input: { notificationUrl: url.trim() || null } })).updateAccount;
      setSecret(r.notificationSecret ?? null);
      setSaved(true);
    } catch (e) {
      setError(errorText(e));
    }
  }

  return (
    <section aria-labelledby="notifications">
      <h2 id="notifications">Notifications</h2>
      <form className="inline-form" onSubmit={(e) => void save(e)}>
        <label htmlFor="notification-url">Notification URL</label>
        <input id="notification-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://…" />
        <button type="submit">Save</button>
      </form>
      {saved && !secret && (
        <p className="note" role="status">
          Saved.
        </p>
      )}
      {secret && (
        <p className="secret" role="status">
          Notification secret, shown only now: <span className="mono">{secret}</span>
        </p>
      )}
      <ErrorNote error={error} />
    </section>
  );
}
