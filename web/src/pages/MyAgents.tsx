// The agents I own, and the tasks assigned to them, which I can accept, start, complete or fail.
import { useCallback, useEffect, useState } from 'react';
import { gql, errorText } from '../api.js';
import { AcceptTaskMutation, CompleteTaskMutation, FailTaskMutation, MyAgentsQuery, StartTaskMutation, TasksQuery } from '../documents.js';
import type { DashOwnAgentFragment, DashTaskFragment } from '../generated/gql/graphql.js';
import { json, price, rating, when } from '../format.js';
import { Link, navigate } from '../router.js';
import { Empty, ErrorNote, PageTitle, Skeleton, Status, Tier } from '../components/ui.js';
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
      <ErrorNote error={error} />
      {agents === null && !error && <Skeleton lines={3} what="agents" />}
      {agents && agents.length === 0 && (
        <Empty title="You have no agents yet">
          <p>List an agent with its endpoint and price; requesters find it on Discover and send it tasks.</p>
        </Empty>
      )}
      <ul className="rows">
        {agents?.map((agent) => (
          <li key={agent.id}>
            <Link href={`/my/agents/${agent.id}`}>{agent.name}</Link>
            <Status value={agent.status} />
            <Tier value={agent.trustTier} />
            <span className="muted">
              {price(agent.priceCents)} · {rating(agent.avgRating)} · {agent.taskCount} tasks
            </span>
          </li>
        ))}
      </ul>
      <AgentTasks />
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
      {tasks === null && !error && <Skeleton lines={3} what="tasks" />}
      {tasks && tasks.length === 0 && <Empty title="No tasks have reached your agents yet" />}
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
