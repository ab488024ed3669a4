// The agents I own, and the tasks assigned to them, which I can accept, start, complete or fail.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { gql, errorText } from '../api.js';
import {
  AcceptTaskMutation,
  CompleteTaskMutation,
  FailTaskMutation,
  ImportAgentMutation,
  MyAgentsQuery,
  NotificationsQuery,
  StartTaskMutation,
  TasksQuery,
  UpdateAccountMutation,
} from '../documents.js';
import type { DashNotificationsQuery, DashOwnAgentFragment, DashTaskFragment } from '../generated/gql/graphql.js';
import { json, price, rating, when } from '../format.js';
import { Link, navigate } from '../router.js';
import { ErrorNote, PageTitle, Status, Tier } from '../components/ui.js';
import { AgentEditor } from './AgentEditor.js';

export function MyAgents() {
  const [agents, setAgents] = useState<DashOwnAgentFragment[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    gql(MyAgentsQuery).then((d) => setAgents(d.myAgents), (e) => setError(errorText(e)));
  }, []);

  return (
    <section>
      <PageTitle>My agents</PageTitle>
      <p>
        <Link href="/my/agents/new" className="button">
          New agent
        </Link>
      </p>
      <ImportCard />
      <ErrorNote error={error} />
      {agents?.some((a) => a.deliveryState !== 'active') && (
        <p className="error" role="alert">
          {agents
            .filter((a) => a.deliveryState !== 'active')
            .map((a) => `${a.name}: endpoint ${a.deliveryState}`)
            .join(' · ')}
        </p>
      )}
      {agents && agents.length === 0 && <p className="note">You have no agents yet.</p>}
      <ul className="rows">
        {agents?.map((agent) => (
          <li key={agent.id}>
            <Link href={`/my/agents/${agent.id}`}>{agent.name}</Link>
            <Status value={agent.status} />
            <Tier value={agent.trustTier} />
            {agent.protocols.includes('a2a') && <span className="muted">A2A{agent.cardVerified ? ', signed card verified' : ''}</span>}
            <span className="muted">
              {price(agent.priceCents)} · {rating(agent.avgRating)} · {agent.taskCount} tasks
            </span>
          </li>
        ))}
      </ul>
      <Notifications />
      <AgentTasks />
    </section>
  );
}

// An agent that speaks A2A is made from its agent card.
function ImportCard() {
  const [cardUrl, setCardUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const agent = (await gql(ImportAgentMutation, { cardUrl })).importAgent;
      navigate(`/my/agents/${agent.id}`);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="inline-form" onSubmit={(e) => void submit(e)}>
      <label id="import-card" htmlFor="card-url">
        Import an A2A agent from its card
      </label>
      <input id="card-url" type="url" required placeholder="https://agent.example/.well-known/agent-card.json" value={cardUrl} onChange={(e) => setCardUrl(e.target.value)} />
      <button type="submit" disabled={busy}>
        Import
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

// Operational events about my agents (endpoint.failing, endpoint.disabled, delivery.exhausted,
// delivery.recovered), and where they are POSTed.
function Notifications() {
  const [data, setData] = useState<DashNotificationsQuery | null>(null);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    gql(NotificationsQuery, { limit: 10 }).then(
      (d) => {
        setData(d);
        setUrl(d.me.notificationUrl ?? '');
      },
      (e) => setError(errorText(e)),
    );
  }, []);

  async function save(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const r = (await gql(UpdateAccountMutation, { input: { notificationUrl: url.trim() || null } })).updateAccount;
      setSecret(r.notificationSecret ?? null);
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
      {secret && (
        <p className="secret" role="status">
          Notification secret, shown only now: <span className="mono">{secret}</span>
        </p>
      )}
      <ErrorNote error={error} />
      {data && data.myNotifications.length === 0 && <p className="note">No events.</p>}
      <ul className="rows">
        {data?.myNotifications.map((n) => (
          <li key={n.id}>
            <span className="mono">{n.type}</span>
            {n.agentId && <Link href={`/my/agents/${n.agentId}`}>{n.agentId}</Link>}
            <span className="muted">
              {when(n.createdAt)} · {n.status}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function NewAgent() {
  return (
    <section>
      <PageTitle>New agent</PageTitle>
      <AgentEditor agent={null} onSaved={(agent) => navigate(`/my/agents/${agent.id}`)} />
    </section>
  );
}

const OPEN = ['matched', 'in_progress'];

function AgentTasks() {
  const [tasks, setTasks] = useState<DashTaskFragment[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setTasks((await gql(TasksQuery, { role: 'agent', limit: 50 })).tasks.data);
    } catch (e) {
      setError(errorText(e));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const replace = (task: DashTaskFragment) => setTasks((list) => list?.map((t) => (t.id === task.id ? task : t)) ?? null);

  return (
    <section aria-labelledby="agent-tasks">
      <h2 id="agent-tasks">Tasks for my agents</h2>
      <button type="button" onClick={() => void load()}>
        Refresh
      </button>
      <ErrorNote error={error} />
      {tasks && tasks.length === 0 && <p className="note">No tasks have reached your agents yet.</p>}
      <ul className="task-moves">
        {tasks?.map((task) => (
          <li key={task.id}>
            <AgentTask task={task} onChange={replace} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function AgentTask({ task, onChange }: { task: DashTaskFragment; onChange: (t: DashTaskFragment) => void }) {
  const [result, setResult] = useState('{\n  \n}');
  const [failure, setFailure] = useState('');
  const [error, setError] = useState<string | null>(null);
  const open = OPEN.includes(task.status);

  async function run(move: () => Promise<DashTaskFragment>) {
    setError(null);
    try {
      onChange(await move());
    } catch (e) {
      setError(errorText(e));
    }
  }

  function complete() {
    let parsed: unknown;
    try {
      parsed = JSON.parse(result);
    } catch {
      return setError('The result must be JSON, e.g. {"text": "done"}');
    }
    void run(async () => (await gql(CompleteTaskMutation, { id: task.id, result: parsed })).completeTask);
  }

  const rid = `result-${task.id}`;
  const fid = `failure-${task.id}`;
  return (
    <div className="agent-task">
      <div className="delivery-head">
        <Link href={`/tasks/${task.id}`}>{task.title}</Link>
        <Status value={task.status} />
        <span className="muted">{when(task.createdAt)}</span>
      </div>
      <details>
        <summary>Input</summary>
        <pre className="json">{json(task.input)}</pre>
      </details>
      {open && (
        <div className="moves">
          <div className="buttons">
            <button type="button" onClick={() => void run(async () => (await gql(AcceptTaskMutation, { id: task.id })).acceptTask)}>
              Accept
            </button>
            <button type="button" onClick={() => void run(async () => (await gql(StartTaskMutation, { id: task.id })).startTask)}>
              Start
            </button>
          </div>
          <div className="field">
            <label htmlFor={rid}>Result (JSON)</label>
            <textarea id={rid} className="mono" rows={3} value={result} onChange={(e) => setResult(e.target.value)} />
            <button type="button" onClick={complete}>
              Complete
            </button>
          </div>
          <div className="field">
            <label htmlFor={fid}>Error message</label>
            <input id={fid} value={failure} onChange={(e) => setFailure(e.target.value)} />
            <button type="button" className="danger" onClick={() => void run(async () => (await gql(FailTaskMutation, { id: task.id, error: failure })).failTask)}>
              Fail
            </button>
          </div>
        </div>
      )}
      <ErrorNote error={error} />
    </div>
  );
}
