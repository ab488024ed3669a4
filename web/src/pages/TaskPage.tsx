// One task, live: taskUpdated over graphql-ws sends the task as it is now and then each change, so
// the page moves from pending to the end by itself. The requester can cancel, answer an input request,
// review a result and rate here; the agent's owner answers a dispute (TaskTrust.tsx).
import { useEffect, useState } from 'react';
import { gql, errorText } from '../api.js';
import { CancelTaskMutation, MeQuery, RateTaskMutation, TaskUpdatedSubscription } from '../documents.js';
import type { DashTaskFragment } from '../generated/gql/graphql.js';
import { subscribe } from '../live.js';
import { json, label, price, when } from '../format.js';
import { useLocation } from '../router.js';
import { ErrorNote, PageTitle, Status } from '../components/ui.js';
import { Dispute, InputRequest, Review } from './TaskTrust.js';

const FINISHED = new Set(['completed', 'failed', 'cancelled', 'expired', 'refunded']);
// A result is shown once the agent gave it: for review, in a dispute, and after.
const HAS_RESULT = new Set(['delivered', 'disputed', 'completed', 'refunded']);
// The requester may cancel while the agent has not answered yet.
const CANCELLABLE = new Set(['pending', 'matched', 'in_progress', 'input_required']);

export function TaskPage({ id }: { id: string }) {
  const { search } = useLocation();
  const paymentNote = search.get('payment');
  const [task, setTask] = useState<DashTaskFragment | null>(null);
  const [me, setMe] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState<'connecting' | 'live' | 'ended'>('connecting');

  useEffect(() => {
    gql(MeQuery).then((d) => setMe(d.me.id), () => {});
    const stop = subscribe(TaskUpdatedSubscription, { id }, {
      data: (d) => {
        setTask(d.taskUpdated);
        setLive(FINISHED.has(d.taskUpdated.status) ? 'ended' : 'live');
      },
      error: (message) => setError(message),
      complete: () => setLive('ended'),
    });
    return stop;
  }, [id]);

  if (!task) return error ? <ErrorNote error={error} /> : <p aria-live="polite">Loading…</p>;
  const isRequester = me !== null && me === task.requesterId;
  // Only the requester and the assigned agent's owner can see a task, so anyone else here is the owner.
  const isOwner = me !== null && me !== task.requesterId;
  return (
    <article>
      <PageTitle>{task.title}</PageTitle>
      <p className="status-line" aria-live="polite">
        Status: <Status value={task.status} />{' '}
        <span className="muted">{live === 'live' ? '(live)' : live === 'ended' ? '' : '(connecting…)'}</span>
      </p>
      {paymentNote && task.status === 'pending' && <p className="note">The card payment is waiting for confirmation: {paymentNote}</p>}
      <ErrorNote error={error} />
      {task.status === 'input_required' && <InputRequest task={task} canAnswer={isRequester} onChange={setTask} />}
      {HAS_RESULT.has(task.status) && task.result != null && (
        <section aria-labelledby="result">
          <h2 id="result">Result</h2>
          <pre className="json" data-testid="task-result">
            {json(task.result)}
          </pre>
          {task.resultHash && <p className="muted mono small">SHA-256 {task.resultHash}</p>}
        </section>
      )}
      {task.status === 'delivered' && isRequester && <Review task={task} onChange={setTask} />}
      {task.disputeReason && <Dispute task={task} isOwner={isOwner} onChange={setTask} />}
      {task.error && (
        <section aria-labelledby="task-error">
          <h2 id="task-error">Error</h2>
          <p className="error">{task.error}</p>
        </section>
      )}
      <dl className="details">
        <dt>Description</dt>
        <dd>{task.description}</dd>
        <dt>Priority</dt>
        <dd>{task.priority}</dd>
        <dt>Agent</dt>
        <dd className="mono">{task.agentId ?? 'not matched yet'}</dd>
        <dt>Payment</dt>
        <dd>{task.payment ? `${price(task.payment.amountCents)} · ${task.payment.method} · ${label(task.payment.status)}` : '–'}</dd>
        <dt>Created</dt>
        <dd>{when(task.createdAt)}</dd>
        <dt>Matched</dt>
        <dd>{when(task.matchedAt)}</dd>
        <dt>Finished</dt>
        <dd>{when(task.finishedAt)}</dd>
        <dt>Expires</dt>
        <dd>{when(task.expiresAt)}</dd>
        <dt>Input</dt>
        <dd>
          <pre className="json">{json(task.input)}</pre>
        </dd>
      </dl>
      {isRequester && <RequesterActions task={task} onChange={setTask} />}
    </article>
  );
}

function RequesterActions({ task, onChange }: { task: DashTaskFragment; onChange: (t: DashTaskFragment) => void }) {
  const [stars, setStars] = useState('5');
  const [error, setError] = useState<string | null>(null);
  const [rated, setRated] = useState<number | null>(task.rating ?? null);

  async function cancel() {
    try {
      onChange((await gql(CancelTaskMutation, { id: task.id })).cancelTask);
    } catch (e) {
      setError(errorText(e));
    }
  }
  async function rate() {
    try {
      setRated((await gql(RateTaskMutation, { taskId: task.id, rating: Number(stars) })).rateTask.rating);
    } catch (e) {
      setError(errorText(e));
    }
  }

  return (
    <section aria-labelledby="actions" className="actions">
      <h2 id="actions">Actions</h2>
      {CANCELLABLE.has(task.status) && (
        <button type="button" className="danger" onClick={() => void cancel()}>
          Cancel task
        </button>
      )}
      {task.status === 'completed' &&
        (rated !== null ? (
          <p>You rated this task {rated} / 5.</p>
        ) : (
          <div className="inline-form">
            <label htmlFor="rating">Rating</label>
            <select id="rating" value={stars} onChange={(e) => setStars(e.target.value)}>
              {[5, 4, 3, 2, 1].map((n) => (
                <option key={n} value={n}>
                  {n} / 5
                </option>
              ))}
            </select>
            <button type="button" onClick={() => void rate()}>
              Rate
            </button>
          </div>
        ))}
      <ErrorNote error={error} />
    </section>
  );
}
