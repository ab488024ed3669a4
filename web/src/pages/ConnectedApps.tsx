// The account page's connected apps: what each app (an MCP host, another program) may do, and
// disconnecting it, which ends its tokens at once.
import { useCallback, useEffect, useState } from 'react';
import { rest, errorText } from '../api.js';
import { ErrorNote } from '../components/ui.js';
import { when } from '../format.js';

interface AppView {
  clientId: string;
  name: string;
  redirectHosts: string[];
  scopes: string[];
  connectedAt: string;
  lastUsedAt: string | null;
}

export function ConnectedApps() {
  const [apps, setApps] = useState<AppView[] | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setApps((await rest<{ data: AppView[] }>('GET', '/v1/account/apps')).body.data);
    } catch (e) {
      setError(errorText(e));
    }
  }, []);
  useEffect(() => void load(), [load]);

  async function disconnect(app: AppView) {
    setError(null);
    try {
      await rest('DELETE', `/v1/account/apps/${encodeURIComponent(app.clientId)}`);
      setStatus(`${app.name} disconnected.`);
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  }

  return (
    <section aria-labelledby="connected-apps">
      <h2 id="connected-apps">Connected apps</h2>
      {apps && apps.length === 0 && <p className="note">No apps connected. An MCP host connects when you allow it on the consent page.</p>}
      <ul className="rows" aria-label="Connected apps">
        {apps?.map((app) => (
          <li key={app.clientId}>
            <span>{app.name}</span>
            <span className="muted">
              {app.redirectHosts.join(', ')} · {app.scopes.join(', ')} · connected {when(app.connectedAt)}
              {app.lastUsedAt ? ` · last used ${when(app.lastUsedAt)}` : ''}
            </span>
            <button type="button" className="link" onClick={() => void disconnect(app)} aria-label={`Disconnect ${app.name}`}>
              Disconnect
            </button>
          </li>
        ))}
      </ul>
      {status && (
        <p className="note" role="status">
          {status}
        </p>
      )}
      <ErrorNote error={error} />
    </section>
  );
}
