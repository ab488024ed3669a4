// One task, live: taskUpdated over graphql-ws sends the task as it is now and then each change, so
// the page moves from pending to the end by itself, its timeline growing. Each viewer sees only the
// moves they may make: the requester cancels, answers an input request, reviews and rates; the
// agent's owner accepts, completes or fails the work and answers a dispute (TaskTrust.tsx).
// Moves that cannot be undone ask for confirmation first.
import { useEffect, useState } from 'react';
import { gql, errorText } from '../api.js';
import {
  AcceptTaskMutation,
  CancelTaskMutation,
  CompleteTaskMutation,
  FailTaskMutation,
  MeQuery,
  RateTaskMutation,
  RequestTaskInputMutation,
  TaskUpdatedSubscription,
} from '../documents.js';
import type { DashTaskFragment } from '../generated/gql/graphql.js';
import { subscribe } from '../live.js';
import { label, paymentWords, when } from '../format.js';
import { Link, useLocation } from '../router.js';
import { ErrorNote, LoadError, PageTitle, Skeleton, Status } from '../components/ui.js';
import { JsonView } from '../components/JsonView.js';
import { TaskFiles } from '../components/FileList.js';
import { AgentIcon } from '../components/AgentIcon.js';
import { Dispute, InputRequest, Review } from './TaskTrust.js';
import { RequesterRecord } from '../components/RequesterRecord.js';
import { TaskTimeline } from './TaskTimeline.js';

const FINISHED = new Set(['completed', 'failed', 'cancelled', 'expired', 'refunded']);
// A result is shown once the agent gave it: for review, in a dispute, and after.
const HAS_RESULT = new Set(['delivered', 'disputed', 'completed', 'refunded']);
// The requester may cancel while the agent has not answered yet.
const CANCELLABLE = new Set(['pending', 'matched', 'in_progress', 'input_required']);
// The agent's owner works on the task in these states.
const WORKING = new Set(['matched', 'in_progress']);

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

  if (!task) return error ? <LoadError error={error} what="Task" /> : <Skeleton lines={6} what="task" />;
  const isRequester = me !== null && me === task.requesterId;
  // Only the requester and the assigned agent's owner can see a task, so anyone else here is the owner.
  const isOwner = me !== null && me !== task.requesterId;
  const hasResult = HAS_RESULT.has(task.status) && task.result != null;
  return (
    <article className="task-page">
      <PageTitle>{task.title}</PageTitle>
      <p className="status-line" aria-live="polite">
        Status: <Status value={task.status} />{' '}
        <span className="muted">{live === 'live' ? '(live)' : live === 'ended' ? '' : '(connecting…)'}</span>
      </p>
      <div className="task-summary">
        <span className="agent-ref">
          {task.agent ? (
            <>
              <AgentIcon agent={task.agent} size={28} />
              <span>
                Agent <Link href={`/agents/${encodeURIComponent(task.agent.slug)}`}>{task.agent.name}</Link>
              </span>
            </>
          ) : (
            <span className="muted">No agent yet: the task is waiting to be routed.</span>
          )}
        </span>
        <span data-testid="task-payment">Payment: {paymentWords(task.payment)}</span>
      </div>
      {paymentNote && task.status === 'pending' && <p className="note">The card payment is waiting for confirmation: {paymentNote}</p>}
      <ErrorNote error={error} />
      {task.status === 'input_required' && <InputRequest task={task} canAnswer={isRequester} onChange={setTask} />}
      <TaskFiles taskId={task.id} status={task.status} />
      {hasResult && (
        <section aria-labelledby="result">
          <h2 id="result">Result</h2>
          <ResultView value={task.result} />
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
      {isRequester && <RequesterActions task={task} onChange={setTask} />}
      {isOwner && <OwnerActions task={task} onChange={setTask} />}
      {isOwner && <RequesterRecord requesterId={task.requesterId} />}
      <div className="task-columns">
        <TaskTimeline task={task} viewer={{ isRequester, isOwner }} />
        <section aria-labelledby="details">
          <h2 id="details">Details</h2>
          <dl className="details">
            <dt>Description</dt>
            <dd className="prose">{task.description}</dd>
            <dt>Priority</dt>
            <dd>{label(task.priority)}</dd>
            <dt>Created</dt>
            <dd>{when(task.createdAt)}</dd>
            <dt>{FINISHED.has(task.status) ? 'Finished' : 'Expires'}</dt>
            <dd>{FINISHED.has(task.status) ? when(task.finishedAt) : when(task.expiresAt)}</dd>
            <dt>Input</dt>
            <dd>{task.input && typeof task.input === 'object' && Object.keys(task.input).length ? <JsonView value={task.input} /> : <span className="muted">none</span>}</dd>
          </dl>
        </section>
      </div>
    </article>
  );
}

// Text as text, anything else as a tree.
function ResultView({ value }: { value: unknown }) {
  if (typeof value === 'string') {
    return (
      <p className="result-text" data-testid="task-result">
        {value}
      </p>
    );
  }
  return <JsonView value={value} testId="task-result" />;
}

function useMove(onChange: (t: DashTaskFragment) => void) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function run(move: () => Promise<DashTaskFragment>, confirmText?: string) {
    if (confirmText && !window.confirm(confirmText)) return;
    setBusy(true);
    setError(null);
    try {
      onChange(await move());
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  return { error, setError, busy, run };
}

function RequesterActions({ task, onChange }: { task: DashTaskFragment; onChange: (t: DashTaskFragment) => void }) {
  const [stars, setStars] = useState('5');
  const [rated, setRated] = useState<number | null>(task.rating ?? null);
  const { error, setError, busy, run } = useMove(onChange);

  async function rate() {
    try {
      setRated((await gql(RateTaskMutation, { taskId: task.id, rating: Number(stars) })).rateTask.rating);
    } catch (e) {
      setError(errorText(e));
    }
  }

  const canCancel = CANCELLABLE.has(task.status);
  const canRate = task.status === 'completed';
  if (!canCancel && !canRate) return null;
  return (
    <section aria-labelledby="actions" className="actions">
      <h2 id="actions">{canRate ? 'Rate the agent' : 'Actions'}</h2>
      {canCancel && (
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() =>
            void run(
              async () => (await gql(CancelTaskMutation, { id: task.id })).cancelTask,
              'Cancel this task? The agent stops working on it and any card hold is released. This cannot be undone.',
            )
          }
        >
          Cancel task
        </button>
      )}
      {canRate &&
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

// The agent's owner does the work by hand here (an agent does it over its callback URL): accept,
// complete with a result, ask the requester for more input, or fail.
export function OwnerActions({ task, onChange }: { task: DashTaskFragment; onChange: (t: DashTaskFragment) => void }) {
  const [result, setResult] = useState('{\n  \n}');
  const [failure, setFailure] = useState('');
  const [question, setQuestion] = useState('');
  const { error, setError, busy, run } = useMove(onChange);
  const working = WORKING.has(task.status);
  const canFail = working || task.status === 'input_required';
  if (!working && !canFail) return null;

  function complete() {
    let parsed: unknown;
    try {
      parsed = JSON.parse(result);
    } catch {
      return setError('The result must be JSON, for example {"text": "done"}.');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return setError('The result must be a JSON object, for example {"text": "done"}.');
    void run(async () => (await gql(CompleteTaskMutation, { id: task.id, result: parsed })).completeTask);
  }

  return (
    <section aria-labelledby="owner-actions" className="actions moves">
      <h2 id="owner-actions">Work on this task</h2>
      {task.status === 'matched' && (
        <p>
          <button type="button" disabled={busy} onClick={() => void run(async () => (await gql(AcceptTaskMutation, { id: task.id })).acceptTask)}>
            Accept and start
          </button>
        </p>
      )}
      {working && (
        <div className="field">
          <label htmlFor="owner-result">Result (JSON)</label>
          <textarea id="owner-result" className="mono" rows={4} value={result} onChange={(e) => setResult(e.target.value)} />
          <button type="button" disabled={busy} onClick={complete}>
            Complete
          </button>
        </div>
      )}
      {working && (
        <div className="field">
          <label htmlFor="owner-question">Ask the requester</label>
          <input id="owner-question" value={question} maxLength={2000} onChange={(e) => setQuestion(e.target.value)} />
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() =>
              question.trim()
                ? void run(async () => (await gql(RequestTaskInputMutation, { id: task.id, input: { message: question } })).requestTaskInput)
                : setError('Write the question the requester should answer.')
            }
          >
            Ask for input
          </button>
        </div>
      )}
      <div className="field">
        <label htmlFor="owner-failure">Why it failed</label>
        <input id="owner-failure" value={failure} onChange={(e) => setFailure(e.target.value)} />
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() =>
            failure.trim()
              ? void run(async () => (await gql(FailTaskMutation, { id: task.id, error: failure })).failTask, 'Fail this task? The requester is not charged. This cannot be undone.')
              : setError('Say why the task failed; the requester reads it.')
          }
        >
          Fail
        </button>
      </div>
      <ErrorNote error={error} />
    </section>
  );
}
