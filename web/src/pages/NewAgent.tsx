// Listing a new agent (/my/agents/new) in three steps: the form (what is needed now, the rest folded
// away); then, with the agent made and still inactive, its webhook secret, shown once, and a test
// delivery to its endpoint; and only when that delivery was answered 2xx, going live. Skipping leaves
// the agent inactive on its console, where the same tools are.
import { useRef, useState } from 'react';
import { gql, errorText } from '../api.js';
import { RotateSecretMutation, TestWebhookMutation, UpdateAgentMutation } from '../documents.js';
import type { DashOwnAgentFragment } from '../generated/gql/graphql.js';
import { Link, navigate } from '../router.js';
import { ErrorNote, PageTitle } from '../components/ui.js';
import { AgentEditor } from './AgentEditor.js';

type TestResult = { ok: boolean; words: string };

export function NewAgent() {
  const [agent, setAgent] = useState<DashOwnAgentFragment | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function created(made: DashOwnAgentFragment) {
    setAgent(made);
    // A pulling agent is sent nothing: it has no endpoint to sign for or to test.
    if (made.deliveryMode === 'pull') return;
    // A webhook agent signs its deliveries from the start; the secret exists only in this answer.
    try {
      const rotated = (await gql(RotateSecretMutation, { id: made.id })).rotateAgentWebhookSecret;
      setSecret(rotated.webhookSecret);
      setAgent({ ...made, hasWebhookSecret: true });
    } catch (e) {
      setError(`The agent was made, but its webhook secret was not: ${errorText(e)}. Generate one on its console.`);
    }
  }

  if (!agent) {
    return (
      <section>
        <PageTitle>New agent</PageTitle>
        <p className="lead">
          Your agent is a web service that takes tasks as signed POST requests. Fill in what is needed now; it stays inactive until a test delivery reaches
          it.
        </p>
        <AgentEditor agent={null} onSaved={(made) => void created(made)} />
      </section>
    );
  }
  return (
    <section aria-labelledby="go-live">
      <PageTitle>
        <span id="go-live">Before {agent.name} goes live</span>
      </PageTitle>
      <p className="lead">
        {agent.name} is made and <strong>inactive</strong>: it gets no tasks yet.
      </p>
      <ErrorNote error={error} />
      {agent.deliveryMode === 'pull' ? (
        <PullGoLive agent={agent} onGoneLive={(live) => navigate(`/my/agents/${live.id}`)} />
      ) : (
        <ol className="go-live-steps">
          <li>
            <h2>Store the webhook secret</h2>
            {secret ? <SecretOnce secret={secret} /> : <p className="note">No secret yet.</p>}
          </li>
          <li>
            <TestDelivery agent={agent} onGoneLive={(live) => navigate(`/my/agents/${live.id}`)} />
          </li>
        </ol>
      )}
      <p>
        <Link href={`/my/agents/${agent.id}`}>Later: open its console</Link> (it stays inactive until you set it active there).
      </p>
    </section>
  );
}

function SecretOnce({ secret }: { secret: string }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
    } catch {
      // Without clipboard access (plain http), the selected text can still be copied by hand.
      field.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
  }

  return (
    <div className="secret">
      <label htmlFor="new-agent-secret">Webhook secret: shown only now. Your agent checks each delivery's signature with it; keep it with the agent, never in code you share.</label>
      <div className="inline-form">
        <input id="new-agent-secret" ref={field} readOnly value={secret} className="mono" onFocus={(e) => e.target.select()} />
        <button type="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p className="note">Deliveries carry Standard Webhooks signatures; "Building an agent" in the docs shows how to check them.</p>
    </div>
  );
}

function TestDelivery({ agent, onGoneLive }: { agent: DashOwnAgentFragment; onGoneLive: (agent: DashOwnAgentFragment) => void }) {
  const [result, setResult] = useState<TestResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function test() {
    setBusy(true);
    setError(null);
    try {
      const r = (await gql(TestWebhookMutation, { agentId: agent.id })).testAgentWebhook;
      setResult({
        ok: r.ok,
        words: r.ok ? `Your endpoint answered ${r.statusCode} in ${r.latencyMs} ms.` : `The test delivery failed: ${r.error ?? `HTTP ${r.statusCode}`} (${r.latencyMs} ms).`,
      });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  async function goLive() {
    setBusy(true);
    setError(null);
    try {
      onGoneLive((await gql(UpdateAgentMutation, { id: agent.id, input: { status: 'active' } })).updateAgent);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }

  return (
    <>
      <h2>Send a test delivery</h2>
      <p>
        A signed test request goes to <span className="mono">{agent.endpoint}</span>; it must answer 2xx.
      </p>
      <div className="buttons">
        <button type="button" className={result?.ok ? 'secondary' : undefined} disabled={busy} onClick={() => void test()}>
          {result ? 'Send it again' : 'Send a test delivery'}
        </button>
        <button type="button" disabled={busy || !result?.ok} onClick={() => void goLive()} aria-describedby="go-live-needs">
          Go live
        </button>
      </div>
      <p id="go-live-needs" className="hint">
        Going live needs a test delivery answered 2xx.
      </p>
      {result && (
        <p role="status" className={result.ok ? 'ok' : 'error'}>
          {result.words}
        </p>
      )}
      <ErrorNote error={error} />
    </>
  );
}

// A pulling agent claims its tasks with its owner's key (scope tasks:work); going live only lets routing
// choose it, so there is nothing to test first.
function PullGoLive({ agent, onGoneLive }: { agent: DashOwnAgentFragment; onGoneLive: (agent: DashOwnAgentFragment) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function goLive() {
    setBusy(true);
    setError(null);
    try {
      onGoneLive((await gql(UpdateAgentMutation, { id: agent.id, input: { status: 'active' } })).updateAgent);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }

  return (
    <>
      <p>
        It takes tasks by claiming them: run a worker with an API key that has the <span className="mono">tasks:work</span> scope (&quot;Building an agent&quot; in the
        docs shows one), then let routing choose it.
      </p>
      <div className="buttons">
        <button type="button" disabled={busy} onClick={() => void goLive()}>
          Go live
        </button>
      </div>
      <ErrorNote error={error} />
    </>
  );
}
