// One of my agents: edit it, manage its webhook secret, and read its delivery log.
import { When } from '../components/When.js';
import { useCallback, useEffect, useRef, useState } from 'react';
import { gql, errorText } from '../api.js';
import {
  CheckWebhookMutation,
  DeliveriesQuery,
  EnableEndpointMutation,
  MyAgentQuery,
  RecoverDeliveriesMutation,
  RedeliverMutation,
  RefreshCardMutation,
  RemoveSecretMutation,
  RotateSecretMutation,
  TestWebhookMutation,
} from '../documents.js';
import type { DashDeliveriesQuery, DashOwnAgentFragment } from '../generated/gql/graphql.js';
import { label } from '../format.js';
import { DeliveryHealth } from '../components/DeliveryHealth.js';
import { Link } from '../router.js';
import { Empty, ErrorNote, LoadError, PageTitle, Skeleton, Status } from '../components/ui.js';
import { AgentEditor } from './AgentEditor.js';

export function MyAgent({ id }: { id: string }) {
  const [agent, setAgent] = useState<DashOwnAgentFragment | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    setError(null);
    gql(MyAgentQuery, { id }).then((d) => setAgent(d.myAgent), (e: unknown) => setError(e));
  }, [id, attempt]);

  if (error) return <LoadError error={error} what="Agent" retry={() => setAttempt((n) => n + 1)} />;
  if (!agent) return <Skeleton lines={8} what="agent" />;
  return (
    <article>
      <PageTitle>{agent.name}</PageTitle>
      <p>
        <Link href={`/agents/${encodeURIComponent(agent.slug)}`}>Public page</Link> · <Link href="/my/agents">All my agents</Link>
      </p>
      <nav className="console-nav" aria-label="Sections of the console">
        <a href="#profile">Profile</a>
        <a href="#endpoint-signing">Endpoint and signing</a>
        <a href="#limits">Limits</a>
        <a href="#input-form">Input form</a>
        <a href="#deliveries">Deliveries</a>
      </nav>
      <section id="profile" className="console-section" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <p className="note">What requesters see on Discover and on the agent's page.</p>
        <AgentEditor agent={agent} onSaved={setAgent} groups={['profile']} />
      </section>
      <section id="endpoint-signing" className="console-section" aria-labelledby="endpoint-signing-title">
        <h2 id="endpoint-signing-title">Endpoint and signing</h2>
        <AgentEditor agent={agent} onSaved={setAgent} groups={['endpoint']} />
        <EndpointHealth agent={agent} onChange={setAgent} />
        {agent.protocols.includes('a2a') ? <A2ACard agent={agent} onChange={setAgent} /> : <WebhookSecret agent={agent} onChange={setAgent} />}
      </section>
      <section id="limits" className="console-section" aria-labelledby="limits-title">
        <h2 id="limits-title">Limits</h2>
        <AgentEditor agent={agent} onSaved={setAgent} groups={['limits']} />
      </section>
      <section id="input-form" className="console-section" aria-labelledby="input-form-title">
        <h2 id="input-form-title">Input form</h2>
        <p className="note">A JSON Schema; requesters fill a form made from it, and every task's input is checked against it.</p>
        <AgentEditor agent={agent} onSaved={setAgent} groups={['input']} />
      </section>
      <DeliveryLog agentId={agent.id} />
    </article>
  );
}

// An agent made from an A2A card: it takes its tasks over A2A (SendMessage), not the webhook.
function A2ACard({ agent, onChange }: { agent: DashOwnAgentFragment; onChange: (a: DashOwnAgentFragment) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function refresh() {
    setError(null);
    setNotice(null);
    try {
      onChange((await gql(RefreshCardMutation, { id: agent.id })).refreshAgentCard);
      setNotice('The card was fetched again.');
    } catch (e) {
      setError(errorText(e));
    }
  }

  return (
    <section aria-labelledby="a2a-card">
      <h3 id="a2a-card">A2A agent card</h3>
      <dl className="facts">
        <div>
          <dt>Protocol</dt>
          <dd><>A2A (JSON-RPC at <span className="mono">{agent.endpoint}</span>)</></dd>
        </div>
        <div>
          <dt>Card</dt>
          <dd>{agent.manifestUrl ? <a href={agent.manifestUrl}>{agent.manifestUrl}</a> : '–'}</dd>
        </div>
        <div>
          <dt>Signature</dt>
          <dd>{agent.cardVerified ? <span className="ok">Verified</span> : 'Not signed, or not verified'}</dd>
        </div>
        <div>
          <dt>Fetched</dt>
          <dd><When at={agent.cardFetchedAt} /></dd>
        </div>
        <div>
          <dt>Provider</dt>
          <dd>{agent.provider?.organization ?? '–'}</dd>
        </div>
        <div>
          <dt>Streaming</dt>
          <dd>{agent.streaming ? 'yes' : 'no'}</dd>
        </div>
        <div>
          <dt>Push notifications</dt>
          <dd>{agent.pushNotifications ? 'yes (updates come to the task’s callback URL)' : 'no (the marketplace polls GetTask)'}</dd>
        </div>
      </dl>
      <button type="button" onClick={() => void refresh()}>
        Refresh card
      </button>
      <p role="status" className="ok">
        {notice}
      </p>
      <ErrorNote error={error} />
    </section>
  );
}


function WebhookSecret({ agent, onChange }: { agent: DashOwnAgentFragment; onChange: (a: DashOwnAgentFragment) => void }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const secretField = useRef<HTMLInputElement>(null);

  async function rotate() {
    const replacing = agent.hasWebhookSecret;
    if (replacing && !window.confirm('Deliveries are signed with the current secret too for one more day. Generate a new one?')) return;
    try {
      const result = await gql(RotateSecretMutation, { id: agent.id });
      setSecret(result.rotateAgentWebhookSecret.webhookSecret);
      setCopied(false);
      onChange({ ...agent, hasWebhookSecret: true, previousWebhookSecretExpiresAt: result.rotateAgentWebhookSecret.previousSecretExpiresAt ?? null });
      requestAnimationFrame(() => secretField.current?.select());
    } catch (e) {
      setError(errorText(e));
    }
  }

  async function remove() {
    if (!window.confirm('Deliveries will no longer be signed. Remove the secret?')) return;
    try {
      onChange((await gql(RemoveSecretMutation, { id: agent.id })).removeAgentWebhookSecret);
      setSecret(null);
    } catch (e) {
      setError(errorText(e));
    }
  }

  async function copy() {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
    } catch {
      // Without clipboard access (plain http), the selected text can still be copied by hand.
      secretField.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
  }

  return (
    <section aria-labelledby="secret">
      <h3 id="secret">Webhook secret</h3>
      <p>{agent.hasWebhookSecret ? 'Deliveries are signed (X-Service-Signature and Standard Webhooks headers).' : 'Deliveries are not signed.'}</p>
      {agent.previousWebhookSecretExpiresAt && (
        <p className="note">The previous secret also signs deliveries until <When at={agent.previousWebhookSecretExpiresAt} />.</p>
      )}
      {secret && (
        <div className="secret" role="status">
          <label htmlFor="webhook-secret">New secret: shown only now, store it with your agent</label>
          <div className="inline-form">
            <input id="webhook-secret" ref={secretField} readOnly value={secret} className="mono" onFocus={(e) => e.target.select()} />
            <button type="button" onClick={() => void copy()}>
              {copied ? 'Copied' : 'Copy'}
            </button>
          </div>
        </div>
      )}
      <div className="buttons">
        <button type="button" onClick={() => void rotate()}>
          {agent.hasWebhookSecret ? 'Rotate secret' : 'Generate secret'}
        </button>
        {agent.hasWebhookSecret && (
          <button type="button" className="danger" onClick={() => void remove()}>
            Disable signing
          </button>
        )}
      </div>
      <ErrorNote error={error} />
    </section>
  );
}

type Delivery = DashDeliveriesQuery['agentDeliveries'][number];

const DELIVERY_KIND: Record<string, string> = {
  'task.assigned': 'The task',
  'task.input': "The requester's answer",
  'a2a.get': 'GetTask (A2A)',
  'a2a.cancel': 'CancelTask (A2A)',
};

// Deliveries grouped by their task, newest task first, each group saying where its task stands.
function byTask(deliveries: readonly Delivery[]): { task: Delivery['task']; deliveries: Delivery[] }[] {
  const groups = new Map<string, { task: Delivery['task']; deliveries: Delivery[] }>();
  for (const d of deliveries) {
    const group = groups.get(d.taskId) ?? { task: d.task, deliveries: [] };
    group.deliveries.push(d);
    groups.set(d.taskId, group);
  }
  return [...groups.values()];
}

function DeliveryLog({ agentId }: { agentId: string }) {
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setDeliveries((await gql(DeliveriesQuery, { agentId, limit: 50 })).agentDeliveries);
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }, [agentId]);

  useEffect(() => void load(), [load]);

  async function redeliver(delivery: Delivery) {
    setNotice(null);
    try {
      await gql(RedeliverMutation, { agentId, deliveryId: delivery.id });
      setNotice(`"${delivery.task.title}" queued again for delivery.`);
    } catch (e) {
      setError(errorText(e));
    }
  }

  // Sends again, once each, the deliveries that failed in the chosen window for tasks still open.
  const [recoverHours, setRecoverHours] = useState('24');
  async function recover() {
    setNotice(null);
    try {
      const since = new Date(Date.now() - Number(recoverHours) * 3600_000).toISOString();
      const { recovered } = (await gql(RecoverDeliveriesMutation, { agentId, since })).recoverDeliveries;
      setNotice(recovered === 1 ? '1 failed delivery sent again.' : `${recovered} failed deliveries sent again.`);
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  }

  return (
    <section id="deliveries" className="console-section" aria-labelledby="deliveries-title">
      <div className="section-head">
        <h2 id="deliveries-title">Deliveries</h2>
        <button type="button" className="secondary" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      <div className="inline-form">
        <label htmlFor="recover-hours">Send again what failed in the last</label>
        <select id="recover-hours" value={recoverHours} onChange={(e) => setRecoverHours(e.target.value)}>
          <option value="1">hour</option>
          <option value="24">24 hours</option>
          <option value="168">7 days</option>
        </select>
        <button type="button" className="secondary" onClick={() => void recover()}>
          Recover
        </button>
      </div>
      {deliveries && <DeliveryHealth deliveries={deliveries} />}
      <p role="status" className="ok">
        {notice}
      </p>
      <ErrorNote error={error} />
      {deliveries === null && !error && <Skeleton lines={3} what="delivery log" />}
      {deliveries && deliveries.length === 0 && (
        <Empty title="No deliveries yet">Each task routed to this agent is delivered to its endpoint and shows here with every attempt.</Empty>
      )}
      {deliveries &&
        byTask(deliveries).map(({ task, deliveries: group }) => (
          <div key={task.id} className="delivery-group">
            <div className="delivery-head">
              <Link href={`/tasks/${task.id}`}>{task.title}</Link>
              <span className="muted">task</span>
              <Status value={task.status} />
            </div>
            <ul className="deliveries">
              {group.map((d) => {
                // Only a still-matched task is delivered again; once the task moved on, a failed
                // delivery no longer matters and says so.
                const canRedeliver = task.status === 'matched' && d.type === 'task.assigned';
                const moot = d.status !== 'succeeded' && task.status !== 'matched';
                return (
                  <li key={d.id} className="delivery">
                    <div className="delivery-head">
                      <span>{DELIVERY_KIND[d.type] ?? d.type}</span>
                      {moot ? <span className="badge">{d.status === 'pending' ? 'not sent' : 'not delivered'}: task {label(task.status)}</span> : <Status value={d.status} />}
                      <span className="muted">
                        {d.attemptCount} attempt{d.attemptCount === 1 ? '' : 's'}
                        {d.nextAttemptAt && !moot ? <>, next <When at={d.nextAttemptAt} /></> : ''}
                      </span>
                      {canRedeliver && (
                        <button type="button" onClick={() => void redeliver(d)} aria-label={`Redeliver ${task.title}`}>
                          Redeliver
                        </button>
                      )}
                    </div>
                    {d.attempts.length > 0 && (
                      // Focusable, so that a keyboard can scroll the table sideways where it is wider than a phone.
                      <div className="table-wrap" tabIndex={0} role="region" aria-label={`Attempts to deliver ${task.title}`}>
                        {/* Roles stated, so the table stays a table to assistive technology where a phone's
                            narrow layout stacks its cells (styles.css). */}
                        <table role="table">
                          <caption className="visually-hidden">Attempts to deliver {task.title}</caption>
                          <thead role="rowgroup">
                            <tr role="row">
                              <th role="columnheader" scope="col">#</th>
                              <th role="columnheader" scope="col">At</th>
                              <th role="columnheader" scope="col">HTTP</th>
                              <th role="columnheader" scope="col">Latency</th>
                              <th role="columnheader" scope="col">Error</th>
                            </tr>
                          </thead>
                          <tbody role="rowgroup">
                            {d.attempts.map((a) => (
                              <tr key={a.number} role="row">
                                <td role="cell" data-label="Attempt">{a.number}</td>
                                <td role="cell" data-label="At">
                                  <When at={a.at as string} />
                                </td>
                                <td role="cell" data-label="HTTP">{a.statusCode ?? '–'}</td>
                                <td role="cell" data-label="Latency">{a.latencyMs} ms</td>
                                <td role="cell" data-label="Error" className="wrap">
                                  {a.error ?? ''}
                                </td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
    </section>
  );
}

// The endpoint's delivery state as a banner, with the owner's tools: test ping, signature check, enable.
function EndpointHealth({ agent, onChange }: { agent: DashOwnAgentFragment; onChange: (a: DashOwnAgentFragment) => void }) {
  const [report, setReport] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function run(work: () => Promise<string>) {
    setError(null);
    try {
      setReport(await work());
    } catch (e) {
      setError(errorText(e));
    }
  }
  const ping = () =>
    run(async () => {
      const r = (await gql(TestWebhookMutation, { agentId: agent.id })).testAgentWebhook;
      return r.ok ? `Ping answered ${r.statusCode} in ${r.latencyMs} ms.` : `Ping failed: ${r.error ?? `HTTP ${r.statusCode}`} (${r.latencyMs} ms).`;
    });
  const check = () =>
    run(async () => {
      const r = (await gql(CheckWebhookMutation, { agentId: agent.id })).checkAgentWebhook;
      return r.verifiesSignatures
        ? 'The endpoint verifies signatures: it took the signed request and refused the wrongly signed and the stale one.'
        : `The endpoint does not verify signatures properly (valid accepted: ${r.acceptedValid}, wrong signature refused: ${r.refusedWrongSignature}, stale timestamp refused: ${r.refusedStaleTimestamp}).`;
    });
  const enable = () =>
    run(async () => {
      onChange((await gql(EnableEndpointMutation, { agentId: agent.id })).enableAgentEndpoint);
      return 'The endpoint is enabled again; waiting deliveries go out now.';
    });

  return (
    <section aria-labelledby="endpoint">
      <h3 id="endpoint">Endpoint health</h3>
      {agent.deliveryState === 'failing' && (
        <p className="error" role="alert">
          Deliveries have been failing since <When at={agent.endpointFailingSince} />. The endpoint is disabled if this goes on.
        </p>
      )}
      {agent.deliveryState === 'disabled' && (
        <p className="error" role="alert">
          The endpoint was disabled <When at={agent.endpointDisabledAt} /> after failing for long: it gets no deliveries. Send a test ping that
          succeeds, then enable it.
        </p>
      )}
      {agent.deliveryState === 'active' && agent.healthStatus === 'healthy' && <p className="note">Health: deliveries are going through.</p>}
      {agent.deliveryState === 'active' && agent.healthStatus === 'unknown' && (
        <p className="note">Health: unknown. No delivery has reached the endpoint yet; send a test ping to see that it answers.</p>
      )}
      {agent.deliveryState === 'active' && agent.healthStatus === 'unhealthy' && (
        <p className="error">Health: unhealthy. Recent deliveries or checks of the endpoint failed; the delivery log below says how.</p>
      )}
      <div className="buttons">
        <button type="button" onClick={() => void ping()}>
          Send test ping
        </button>
        <button type="button" onClick={() => void check()} disabled={!agent.hasWebhookSecret} aria-describedby={agent.hasWebhookSecret ? undefined : 'check-needs-secret'}>
          Check signature verification
        </button>
        {!agent.hasWebhookSecret && (
          <span className="hint" id="check-needs-secret">
            Checking signature verification needs a webhook secret: generate one below first.
          </span>
        )}
        {agent.deliveryState === 'disabled' && (
          <button type="button" onClick={() => void enable()}>
            Enable endpoint
          </button>
        )}
      </div>
      <p role="status" className="ok">
        {report}
      </p>
      <ErrorNote error={error} />
    </section>
  );
}
