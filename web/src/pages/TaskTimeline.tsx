// A task's history as a timeline: every state change with who made it, when and why, oldest first; for
// the agent's owner also each delivery attempt (HTTP status, latency, error) at its time; and the payment's
// steps (held, captured, released, a credit used or given back).
// The first step says when it happened; each later one how long after the one before it ("+1.2 s"), its
// exact time on hover. A delivery attempt is placed at the moment it was sent (its recorded time less its
// latency), so the move its answer caused follows it.
// The task page receives the history with each live update, so the timeline grows by itself.
import { When } from '../components/When.js';
import { duration, exact } from '../format.js';
import type { DashTaskFragment } from '../generated/gql/graphql.js';
import { Status } from '../components/ui.js';
import { paymentSteps, type PaymentStep } from './payment-steps.js';

type Entry = DashTaskFragment['history'][number];

const ACTIONS: Record<string, string> = {
  create: 'created the task',
  match: 'matched the task to',
  delivered: 'delivered the task to',
  accept: 'accepted the task',
  start: 'started work',
  request_input: 'asked for more input',
  provide_input: 'answered the input request',
  complete: 'completed the task',
  deliver_result: 'delivered a result for review',
  approve: 'approved the result',
  reject: 'rejected the result',
  refund: 'refunded the requester',
  contest: 'contested the dispute',
  resolve_refund: 'settled the dispute with a refund',
  resolve_pay: 'settled the dispute for the agent',
  fail: 'reported that the task failed',
  cancel: 'cancelled the task',
  input_timeout: 'cancelled the task: the input request went unanswered',
  expire: 'expired the task: it was not finished in time',
  undeliverable: 'gave up delivering the task to',
  unpaid: 'stopped the task: the card hold was declined',
};

export interface Viewer {
  isRequester: boolean;
  isOwner: boolean;
}

function who(entry: Entry, viewer: Viewer, agentName: string): string {
  switch (entry.actor) {
    case 'requester':
      return viewer.isRequester ? 'You' : 'The requester';
    case 'agent_owner':
      return viewer.isOwner ? 'You' : "The agent's owner";
    case 'agent':
      return agentName;
    case 'operator':
      return 'An operator';
    default:
      return 'The service';
  }
}

function what(entry: Entry, agentName: string): string {
  const words = ACTIONS[entry.action] ?? entry.action.replace(/_/g, ' ');
  return words.endsWith(' to') ? `${words} ${agentName}` : words;
}

type Attempt = NonNullable<DashTaskFragment['deliveries']>[number]['attempts'][number] & { type: string };

// When a step happened: the first in words, each later one as the time since the step before it.
function StepTime({ at, previous }: { at: string; previous: string | null }) {
  if (!previous) return <When at={at} />;
  const gap = Math.max(0, new Date(at).getTime() - new Date(previous).getTime());
  const full = exact(at);
  return (
    <time className="tl-gap" dateTime={at} title={full} aria-label={`${duration(gap)} later (${full})`}>
      +{duration(gap)}
    </time>
  );
}

const DELIVERY_WORDS: Record<string, string> = { 'task.assigned': 'the task', 'task.input': "the requester's answer" };

// For the agent's owner: each attempt to deliver, between the moves, at its time.
const ok = (attempt: Attempt) => attempt.statusCode != null && attempt.statusCode >= 200 && attempt.statusCode < 300;

function AttemptItem({ attempt, agentName, previous }: { attempt: Attempt; agentName: string; previous: string | null }) {
  return (
    <li className={`tl-attempt ${ok(attempt) ? 'tl-ok' : 'tl-bad'}`}>
      <StepTime at={sentAt(attempt)} previous={previous} />
      <p>
        <strong>The service</strong> sent {DELIVERY_WORDS[attempt.type] ?? attempt.type} to {agentName}'s endpoint (attempt {attempt.number}):{' '}
        {attempt.statusCode != null ? `HTTP ${attempt.statusCode}` : 'no answer'} in {attempt.latencyMs} ms.
      </p>
      {attempt.error && <p className="tl-note">{attempt.error}</p>}
    </li>
  );
}

// An attempt's recorded time is when its answer came (or the wait ended); it was sent its latency before.
const sentAt = (attempt: Attempt): string => new Date(new Date(attempt.at as string).getTime() - (attempt.latencyMs ?? 0)).toISOString();

function PaymentItem({ step, previous }: { step: PaymentStep; previous: string | null }) {
  return (
    <li className={`tl-payment tl-payment-${step.kind}`} data-testid={`payment-${step.kind}`}>
      <StepTime at={step.at} previous={previous} />
      <p>
        <strong>The service</strong> {step.words}.
      </p>
    </li>
  );
}

function MoveItem({ entry, viewer, agentName, previous }: { entry: Entry; viewer: Viewer; agentName: string; previous: string | null }) {
  return (
    <li className={`tl-${entry.toStatus}`}>
      <StepTime at={entry.at as string} previous={previous} />
      <p>
        <strong>{who(entry, viewer, agentName)}</strong> {what(entry, agentName)}.{' '}
        {entry.fromStatus !== entry.toStatus && (
          <span className="tl-move">
            {entry.fromStatus && <Status value={entry.fromStatus} />}
            {entry.fromStatus && <span aria-label="to"> → </span>}
            <Status value={entry.toStatus} />
          </span>
        )}
      </p>
      {entry.note && <p className="tl-note">{entry.note}</p>}
    </li>
  );
}

export function TaskTimeline({ task, viewer }: { task: DashTaskFragment; viewer: Viewer }) {
  const agentName = task.agent?.name ?? 'the agent';
  const entries = task.history;
  const created = entries.some((e) => e.action === 'create');
  const attempts: Attempt[] = (task.deliveries ?? []).flatMap((d) => d.attempts.map((a) => ({ ...a, type: d.type })));
  // Moves, attempts (at the moment they were sent) and payment steps in time order (at the same instant: a
  // hold, the move, an attempt, a settlement).
  type Item = { at: string; order: number; key: string; entry?: Entry; attempt?: Attempt; step?: PaymentStep };
  const delivered = entries.find((e) => e.action === 'delivered');
  const items: Item[] = [
    ...entries.map((entry, i): Item => ({ at: entry.at as string, order: 0, key: `m${i}`, entry })),
    ...attempts.map((attempt): Item => {
      // The attempt whose 2xx delivered the task comes before that move, whatever the clocks say (its
      // time is taken after the answer, when a loaded machine may take a while to record it).
      const caused = delivered && attempt.type === 'task.assigned' && ok(attempt);
      const at = caused && new Date(delivered.at as string) < new Date(sentAt(attempt)) ? (delivered.at as string) : sentAt(attempt);
      return { at, order: caused ? -1 : 1, key: `a${attempt.type}${attempt.number}${attempt.at}`, attempt };
    }),
    ...paymentSteps(task.payment).map((step): Item => ({ at: step.at, order: step.order, key: `p${step.kind}`, step })),
  ].sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime() || a.order - b.order);
  return (
    <section aria-labelledby="timeline">
      <h2 id="timeline">Timeline</h2>
      <ol className="timeline">
        {!created && (
          <li>
            <StepTime at={task.createdAt as string} previous={null} />
            <p>
              <strong>{viewer.isRequester ? 'You' : 'The requester'}</strong> created the task.
            </p>
          </li>
        )}
        {items.map(({ key, entry, attempt, step }, i) => {
          const previous = i > 0 ? items[i - 1]!.at : created ? null : (task.createdAt as string);
          return attempt ? (
            <AttemptItem key={key} attempt={attempt} agentName={agentName} previous={previous} />
          ) : step ? (
            <PaymentItem key={key} step={step} previous={previous} />
          ) : entry ? (
            <MoveItem key={key} entry={entry} viewer={viewer} agentName={agentName} previous={previous} />
          ) : null;
        })}
      </ol>
    </section>
  );
}
