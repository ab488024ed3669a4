// The account page's API keys: create one with the scopes it needs (shown once, to copy), see when
// each was last used, revoke one (it stops working at once).
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { rest, errorText } from '../api.js';
import { ErrorNote } from '../components/ui.js';
import { when } from '../format.js';
import { allScopes, scopeWords } from '../scope-words.js';

interface KeyView {
  id: string;
  name: string | null;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

export function ApiKeys() {
  const [keys, setKeys] = useState<KeyView[] | null>(null);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [created, setCreated] = useState<{ name: string; apiKey: string } | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setKeys((await rest<{ data: KeyView[] }>('GET', '/v1/api-keys')).body.data.filter((k) => !k.revokedAt));
    } catch (e) {
      setError(errorText(e));
    }
  }, []);
  useEffect(() => void load(), [load]);

  async function create(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setStatus(null);
    try {
      const body = { name: name.trim() || null, ...(chosen.length > 0 ? { scopes: chosen } : {}) };
      const { body: answer } = await rest<{ data: { apiKey: string; name: string | null } }>('POST', '/v1/api-keys', body);
      setCreated({ name: answer.data.name ?? 'unnamed', apiKey: answer.data.apiKey });
      setName('');
      setChosen([]);
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  }

  async function revoke(key: KeyView) {
    setError(null);
    try {
      await rest('DELETE', `/v1/api-keys/${encodeURIComponent(key.id)}`);
      setStatus(`Key “${key.name ?? key.prefix}” revoked.`);
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  }

  const toggle = (scope: string) => setChosen((now) => (now.includes(scope) ? now.filter((s) => s !== scope) : [...now, scope]));

  return (
    <section aria-labelledby="api-keys">
      <h2 id="api-keys">API keys</h2>
      {keys && keys.length === 0 && <p className="note">No API keys. Programs and scripts use one to act for you.</p>}
      <ul className="rows" aria-label="Your API keys">
        {keys?.map((k) => (
          <li key={k.id}>
            <span>{k.name ?? 'unnamed'}</span>
            <code>{k.prefix}…</code>
            <span className="muted">
              {k.scopes.length === allScopes.length ? 'all scopes' : k.scopes.join(', ')} · created {when(k.createdAt)} ·{' '}
              {k.lastUsedAt ? `last used ${when(k.lastUsedAt)}` : 'never used'}
              {k.expiresAt ? ` · expires ${when(k.expiresAt)}` : ''}
            </span>
            <button type="button" className="link" onClick={() => void revoke(k)} aria-label={`Revoke key ${k.name ?? k.prefix}`}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
      {created && (
        <div className="secret" role="status">
          <p>
            Key “{created.name}”: copy it now, it is not shown again.
          </p>
          <label htmlFor="new-api-key">New API key</label>
          <input id="new-api-key" readOnly value={created.apiKey} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" onClick={() => void navigator.clipboard?.writeText(created.apiKey)}>
            Copy
          </button>
          <button type="button" className="link" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      <form onSubmit={(e) => void create(e)}>
        <div className="field">
          <label htmlFor="key-name">New key's name</label>
          <input id="key-name" maxLength={100} placeholder="CI deploy" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <fieldset>
          <legend>Scopes (none chosen: all of them)</legend>
          <ul className="check-list">
            {allScopes.map((scope) => (
              <li key={scope}>
                <label className="check">
                  <input type="checkbox" checked={chosen.includes(scope)} onChange={() => toggle(scope)} />
                  <span>
                    <code>{scope}</code> {scopeWords[scope]}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <button type="submit">Create key</button>
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
