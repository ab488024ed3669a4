// One task, live: taskUpdated over graphql-ws sends the task as it is now and then each change, so
// the page moves from pending to the end by itself, its timeline growing. Each viewer sees only the
// moves they may make: the requester cancels, answers an input request, reviews and rates; the
// agent's owner accepts, completes or fails the work and answers a dispute (TaskTrust.tsx).
// Moves that cannot be undone ask for confirmation first.
import { When } from '../components/When.js';
import { useEffect, useState } from 'react';
import { gql, errorText } from '../api.js';
import {
  AcceptTaskMutation,
  CancelTaskMutation,
  CompleteTaskMutation,
  FailTaskMutation,
  MeQuery,
  MyAgentIdsQuery,
  RateTaskMutation,
  RequestTaskInputMutation,
  TaskUpdatedSubscription,
} from '../documents.js';
import type { DashTaskFragment } from '../generated/gql/graphql.js';
import { subscribe } from '../live.js';
import { label, paymentWords } from '../format.js';
import { Link } from '../router.js';
import { ConfirmHold } from '../payments/ConfirmHold.js';
import { TestPaymentNote } from '../payments/TestPaymentNote.js';
import { ErrorNote, LoadError, PageTitle, Skeleton, Status } from '../components/ui.js';
import { JsonView } from '../components/JsonView.js';
import { TaskFiles } from '../components/FileList.js';
import { AgentIcon } from '../components/AgentIcon.js';
import { Dispute, InputRequest, Review } from './TaskTrust.js';
import { RequesterRecord } from '../components/RequesterRecord.js';
import { TaskTimeline } from './TaskTimeline.js';
import { TaskReceipt } from '../components/TaskReceipt.js';
import { canMove, isUnderway, type NonTerminalStatus } from '../lifecycle.js';
import { FINISHED, OWNER_WORKS, PROGRESS_STEPS, SHOWS_RESULT, STEP_OF } from '../task-status-sets.js';


export function TaskPage({ id }: { id: string }) {
  const [task, setTask] = useState<DashTaskFragment | null>(null);
  const [me, setMe] = useState<string | null>(null);
  const [myAgents, setMyAgents] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState<'connecting' | 'live' | 'ended'>('connecting');

  useEffect(() => {
    gql(MeQuery).then((d) => setMe(d.me.id), () => {});
    // A requester may own the agent too: then both sides' moves are theirs.
    gql(MyAgentIdsQuery).then((d) => setMyAgents(new Set(d.myAgents.map((a) => a.id))), () => {});
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
  // Only the requester and the assigned agent's owner can see a task, so anyone else here is the owner;
  // a requester who owns the agent is both.
  const isOwner = me !== null && (me !== task.requesterId || (task.agentId !== null && task.agentId !== undefined && myAgents.has(task.agentId)));
  const hasResult = SHOWS_RESULT.has(task.status) && task.result != null;
  return (
    <article className="task-page">
      <PageTitle>{task.title}</PageTitle>
      <p className="status-line" aria-live="polite">
        Status: <Status value={task.status} />{' '}
        <span className="muted">{live === 'live' ? '(live)' : live === 'ended' ? '' : '(connecting…)'}</span>
      </p>
      {isUnderway(task.status) && <Progress task={task} status={task.status} />}
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
            <span className="waiting-note" data-testid="task-waiting">
              Waiting for an agent{task.routing.reason ? `: ${task.routing.reason}` : ''}. It is routed as soon as one can take it.
            </span>
          )}
        </span>
        <span data-testid="task-payment">Payment: {paymentWords(task.payment)}</span>
      </div>
      {task.payment && task.payment.method !== 'free' && !(isRequester && waitsForHold(task)) && <TestPaymentNote />}
      {isRequester && waitsForHold(task) && <ConfirmHold taskId={task.id} />}
      <ErrorNote error={error} />
      {task.status === 'input_required' && <InputRequest task={task} canAnswer={isRequester} onChange={setTask} />}
      <TaskFiles taskId={task.id} status={task.status} />
      {hasResult && (
        <section aria-labelledby="result">
          <h2 id="result">Result</h2>
          <ResultView value={task.result} />
          {task.resultHash && (
            <details className="evidence">
              <summary>Evidence fingerprint</summary>
              <p className="muted">
                A SHA-256 fingerprint of the result as the agent gave it. If the result is ever disputed, anyone can recompute it from the
                result to show it was not changed afterwards.
              </p>
              <p className="mono small">{task.resultHash}</p>
            </details>
          )}
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
      {task.receipt && <TaskReceipt taskId={task.id} receipt={task.receipt} />}
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
            <dd><When at={task.createdAt} /></dd>
            <dt>{FINISHED.has(task.status) ? 'Finished' : 'Expires'}</dt>
            <dd><When at={FINISHED.has(task.status) ? task.finishedAt : task.expiresAt} /></dd>
            <dt>Input</dt>
            <dd>{task.input && typeof task.input === 'object' && Object.keys(task.input).length ? <JsonView value={task.input} /> : <span className="muted">none</span>}</dd>
          </dl>
        </section>
      </div>
    </article>
  );
}

// A card hold the requester has yet to confirm: the task waits for it.
const waitsForHold = (task: DashTaskFragment) => task.status === 'pending' && task.payment?.method === 'card' && task.payment.status === 'pending';

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
  const [stars, setStars] = useState('');
  const [rated, setRated] = useState<number | null>(task.rating ?? null);
  const { error, setError, busy, run } = useMove(onChange);

  async function rate() {
    try {
      setRated((await gql(RateTaskMutation, { taskId: task.id, rating: Number(stars) })).rateTask.rating);
    } catch (e) {
      setError(errorText(e));
    }
  }

  // The requester may cancel while the agent has not answered yet.
  const canCancel = canMove('cancel', task.status);
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
              <option value="" disabled>
                Choose…
              </option>
              {[5, 4, 3, 2, 1].map((n) => (
                <option key={n} value={n}>
                  {n} / 5
                </option>
              ))}
            </select>
            <button type="button" disabled={stars === ''} onClick={() => void rate()}>
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
  const working = OWNER_WORKS.has(task.status);
  const canFail = canMove('fail', task.status);
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
      {canMove('accept', task.status) && (
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

// The steps of a task still under way, the current one marked; a delivery that failed says when it is
// tried again.
function Progress({ task, status }: { task: DashTaskFragment; status: NonTerminalStatus }) {
  const at = STEP_OF[status];
  const retry = (task.deliveries ?? []).find((d) => d.status === 'pending' && d.nextAttemptAt && d.attempts.length > 0);
  return (
    <>
      <ol className="progress" aria-label="Progress">
        {PROGRESS_STEPS.map(([step, words], i) => (
          <li key={step} className={i < at ? 'done' : i === at ? 'now' : undefined} aria-current={i === at ? 'step' : undefined}>
            {words}
          </li>
        ))}
      </ol>
      {retry && (
        <p className="note" data-testid="next-retry">
          Delivery attempt {retry.attempts.length} failed; next try <When at={retry.nextAttemptAt} />.
        </p>
      )}
    </>
  );
}
