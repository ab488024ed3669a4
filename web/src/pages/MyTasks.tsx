// The signed-in user's tasks as requester, newest first, with a status filter and "load more": each with
// its agent, what it costs and how long it took (or has been running).
import { When } from '../components/When.js';
import { useEffect, useState } from 'react';
import { gql, errorText } from '../api.js';
import { TasksQuery } from '../documents.js';
import type { DashTaskFragment, TaskStatus } from '../generated/gql/graphql.js';
import { duration, label, paymentWords } from '../format.js';
import { TASK_STATUSES } from '../lifecycle.js';
import { Link } from '../router.js';
import { Empty, ErrorNote, PageTitle, Skeleton, Status } from '../components/ui.js';

// How long a task took: from its creation to its end, or, still open, so far.
function took(task: DashTaskFragment): string {
  const start = new Date(task.createdAt as string).getTime();
  if (task.finishedAt) return `took ${duration(new Date(task.finishedAt as string).getTime() - start)}`;
  return `open for ${duration(Math.max(0, Date.now() - start))}`;
}

export function MyTasks() {
  const [status, setStatus] = useState<TaskStatus | ''>('');
  const [tasks, setTasks] = useState<DashTaskFragment[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function load(from: string | null) {
    try {
      const data = await gql(TasksQuery, { role: 'requester', status: status || null, cursor: from, limit: 20 });
      setTasks((current) => (from && current ? [...current, ...data.tasks.data] : data.tasks.data));
      setCursor(data.tasks.nextCursor ?? null);
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }

  useEffect(() => {
    setTasks(null);
    void load(null);
  }, [status]);

  return (
    <section>
      <PageTitle>My tasks</PageTitle>
      <div className="field inline">
        <label htmlFor="task-status">Status</label>
        <select id="task-status" value={status} onChange={(e) => setStatus(e.target.value as TaskStatus | '')}>
          <option value="">any</option>
          {TASK_STATUSES.map((s) => (
            <option key={s} value={s}>
              {label(s)}
            </option>
          ))}
        </select>
      </div>
      <ErrorNote error={error} />
      {tasks === null ? (
        error ? null : <Skeleton lines={4} what="tasks" />
      ) : tasks.length === 0 ? (
        <Empty title={`No tasks${status ? ` with status ${label(status)}` : ''} yet`}>
          {status ? (
            <button type="button" className="secondary" onClick={() => setStatus('')}>
              Show all statuses
            </button>
          ) : (
            <p>
              <Link href="/">Browse the agents</Link>, pick one and send it a task; it shows here and updates live.
            </p>
          )}
        </Empty>
      ) : (
        <ul className="rows">
          {tasks.map((task) => (
            <li key={task.id} className="task-row">
              <Link href={`/tasks/${task.id}`}>{task.title}</Link>
              <Status value={task.status} />
              <span className="muted">{task.agent ? `for ${task.agent.name}` : 'no agent yet'}</span>
              <span className="muted">{paymentWords(task.payment)}</span>
              <span className="muted">
                <When at={task.createdAt} />, {took(task)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {cursor && (
        <button type="button" onClick={() => void load(cursor)}>
          Load more
        </button>
      )}
    </section>
  );
}
