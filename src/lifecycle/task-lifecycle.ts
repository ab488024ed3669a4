// The task lifecycle, stated once: the states, the moves between them and who may make each move.
// Everything else that names task states derives from here: the moves' execution (services/
// task-states.ts, which also checks these states against schema.prisma's enum), the GraphQL enum
// (schema/tasks.ts), the A2A mapping (a2a/mapping.ts), payments' outcomes, the expiry job and the
// dashboard's sets (web/). A table keyed by TaskStatus (`satisfies Record<TaskStatus, …>`) or an
// exhaustive switch wherever states are handled makes a new state a compile error until it is handled.
// No imports: the dashboard's bundle takes this file as it is.

// Where a state stands: the task waits for an agent, an agent works on it, it waits for the requester's
// input, its result waits for the requester's review (or a dispute's end), or it is finished for good.
export type Phase = 'waiting' | 'working' | 'asking' | 'reviewing' | 'finished';

interface StateRule {
  phase: Phase;
  // The agent gave a result, which stays shown (and may still be taken back by a refund).
  hasResult: boolean;
}

// The states, in the order the API lists them (the GraphQL enum, the dashboard's filter).
export const STATES = {
  pending: { phase: 'waiting', hasResult: false },
  matched: { phase: 'working', hasResult: false },
  in_progress: { phase: 'working', hasResult: false },
  // The agent asked the requester for more input; the expiry clock stops while the task waits.
  input_required: { phase: 'asking', hasResult: false },
  // The agent's result waits for the requester's review; the payment stays held.
  delivered: { phase: 'reviewing', hasResult: true },
  // The requester rejected the result; the agent's owner refunds or contests, an operator settles.
  disputed: { phase: 'reviewing', hasResult: true },
  completed: { phase: 'finished', hasResult: true },
  failed: { phase: 'finished', hasResult: false },
  cancelled: { phase: 'finished', hasResult: false },
  expired: { phase: 'finished', hasResult: false },
  // A dispute ended in the requester's favour: the payment was released or the credit given back.
  refunded: { phase: 'finished', hasResult: true },
} as const satisfies Record<string, StateRule>;

export type TaskStatus = keyof typeof STATES;
export const TASK_STATUSES = Object.keys(STATES) as TaskStatus[];

type StatusIn<P extends Phase> = { [S in TaskStatus]: (typeof STATES)[S]['phase'] extends P ? S : never }[TaskStatus];
// A state no move leaves: the task's token stops working and its payment is settled (payments' outcomes).
export type TerminalStatus = StatusIn<'finished'>;
export type NonTerminalStatus = Exclude<TaskStatus, TerminalStatus>;
export type WorkingStatus = StatusIn<'working'>;

// The sets are typed as plain states, so any status can be looked up in them (`includes`).
const statusesIn = (...phases: Phase[]): readonly TaskStatus[] => TASK_STATUSES.filter((s) => phases.includes(STATES[s].phase));

export const TERMINAL = statusesIn('finished');
export const NON_TERMINAL = statusesIn('waiting', 'working', 'asking', 'reviewing');
// The states in which the agent is working on the task (the expiry clock runs).
export const WORKING = statusesIn('working');
// The states in which the task is with its agent: working on it, or waiting for the requester's answer.
export const WITH_AGENT = statusesIn('working', 'asking');
// The states in which the task carries the agent's result.
export const HAS_RESULT: readonly TaskStatus[] = TASK_STATUSES.filter((s) => STATES[s].hasResult);

// What a finished task says about its agent, for every figure of its record (the track record, the daily
// figures, taskCount, completedCount, failedCount, the success rate and trust): completed is a success;
// failed, expired and refunded (a dispute settled for the requester) are failures; a cancelled task says
// nothing either way. A table keyed by the terminal states: a new one is a compile error here until it is
// placed. Which of its tasks an agent is judged by at all (it had the task; its owner did not ask for it)
// is reputation's rule (src/stores/counted-tasks.ts), stated there once over these outcomes.
export type RecordOutcome = 'success' | 'failure';
export const RECORD_OUTCOME = {
  completed: 'success',
  failed: 'failure',
  expired: 'failure',
  refunded: 'failure',
  cancelled: null,
} as const satisfies Record<TerminalStatus, RecordOutcome | null>;

const withOutcome = (outcome: RecordOutcome): readonly TerminalStatus[] =>
  (Object.keys(RECORD_OUTCOME) as TerminalStatus[]).filter((s) => RECORD_OUTCOME[s] === outcome);
export const SUCCEEDED: readonly TaskStatus[] = withOutcome('success');
export const FAILED: readonly TaskStatus[] = withOutcome('failure');

export function isTerminal(status: TaskStatus): boolean {
  return STATES[status].phase === 'finished';
}

// Still under way (the dashboard's progress), as a type guard.
export const isUnderway = (status: TaskStatus): status is NonTerminalStatus => !isTerminal(status);

// The default of a switch over the states that handles each one: a state left out makes `status` not
// `never` there, a compile error.
export function unhandledState(status: never): never {
  throw new Error(`unhandled task state ${String(status)}`);
}

// Who makes a move: the task's requester, the owner of its agent (API key or dashboard), the agent itself
// (with the task token, or over A2A), an operator, or the service (jobs, deliveries, payments).
export type ActorKind = 'requester' | 'agent_owner' | 'agent' | 'operator' | 'system';
export const ACTOR_KINDS = ['requester', 'agent_owner', 'agent', 'operator', 'system'] as const satisfies readonly ActorKind[];

export interface Move {
  from: readonly TaskStatus[];
  to: TaskStatus;
  // Who may make it; any other actor is a programming error (services/task-states.ts transition).
  by: readonly ActorKind[];
  // Calling the move again from its own result changes nothing and is not an error.
  idempotentFrom?: readonly TaskStatus[];
}

export const MOVES = {
  // Routing found an agent and payment is settled: the task is handed to delivery.
  match: { from: ['pending'], to: 'matched', by: ['system'] },
  // The agent's endpoint answered the delivery with 2xx.
  delivered: { from: ['matched'], to: 'in_progress', by: ['system'] },
  accept: { from: ['matched'], to: 'in_progress', by: ['agent_owner'], idempotentFrom: ['in_progress'] },
  start: { from: ['matched'], to: 'in_progress', by: ['agent_owner'], idempotentFrom: ['in_progress'] },
  // The agent needs more from the requester; the requester's answer sends the task back to work.
  request_input: { from: WORKING, to: 'input_required', by: ['agent', 'agent_owner'] },
  provide_input: { from: ['input_required'], to: 'in_progress', by: ['requester'] },
  // An agent may answer before its delivery's response is processed, so matched is allowed too.
  complete: { from: WORKING, to: 'completed', by: ['agent', 'agent_owner'] },
  // With a review window the result waits for the requester before the payment is taken.
  deliver_result: { from: WORKING, to: 'delivered', by: ['agent', 'agent_owner'] },
  // The requester approves, or the review window passes without an answer.
  approve: { from: ['delivered'], to: 'completed', by: ['requester', 'system'] },
  reject: { from: ['delivered'], to: 'disputed', by: ['requester'] },
  // The agent's owner gives the money back (or leaves the dispute unanswered until its deadline), or
  // stands by the result (the status stays disputed).
  refund: { from: ['disputed'], to: 'refunded', by: ['agent_owner', 'system'] },
  contest: { from: ['disputed'], to: 'disputed', by: ['agent_owner'] },
  // An operator settles a dispute either way.
  resolve_refund: { from: ['disputed'], to: 'refunded', by: ['operator'] },
  resolve_pay: { from: ['disputed'], to: 'completed', by: ['operator'] },
  fail: { from: WITH_AGENT, to: 'failed', by: ['agent', 'agent_owner'] },
  // The requester withdraws the task, or an A2A agent cancels it on its side.
  cancel: { from: ['pending', 'matched', 'in_progress', 'input_required'], to: 'cancelled', by: ['requester', 'agent'] },
  // The input request went unanswered (or the card hold would lapse first).
  input_timeout: { from: ['input_required'], to: 'cancelled', by: ['system'] },
  // Only while the task waits for or is with its agent: input, review and disputes have their own clocks.
  expire: { from: ['pending', 'matched', 'in_progress'], to: 'expired', by: ['system'] },
  // Delivery was given up while the task still waited for its agent.
  undeliverable: { from: ['matched'], to: 'failed', by: ['system'] },
  // The card hold was declined; the task never reached its agent.
  unpaid: { from: ['pending'], to: 'failed', by: ['system'] },
} as const satisfies Record<string, Move>;

export type MoveName = keyof typeof MOVES;

// A move that ends the task, and the state it ends in (payments' outcome, what rides on finishing).
export type FinishingMove = { [M in MoveName]: (typeof MOVES)[M]['to'] extends TerminalStatus ? M : never }[MoveName];
export const outcomeOf = <M extends FinishingMove>(move: M): (typeof MOVES)[M]['to'] => MOVES[move].to;

// The state a delivery to the agent waits for, by the delivery's type: the task itself goes out while the
// `delivered` move can take it on; the answer to an input request once that answer has sent the task
// back to work. Stated here once: the delivery job, its one-statement claim, the recovery of failed
// deliveries and A2A's calls derive from it (stores/delivery-waits.ts is its SQL form).
export const DELIVERY_WAITS_FOR = {
  'task.assigned': MOVES.delivered.from[0],
  'task.input': MOVES.provide_input.to,
} as const satisfies Record<string, TaskStatus>;
export type DeliveryType = keyof typeof DELIVERY_WAITS_FOR;
// A type of no rule of its own (A2A's calls, whose senders may say otherwise) waits as the task itself does.
export const DEFAULT_DELIVERY_WAIT: TaskStatus = DELIVERY_WAITS_FOR['task.assigned'];
export function deliveryWaitsFor(type: string): TaskStatus {
  return Object.hasOwn(DELIVERY_WAITS_FOR, type) ? DELIVERY_WAITS_FOR[type as DeliveryType] : DEFAULT_DELIVERY_WAIT;
}

export function mayMove(move: MoveName, actor: ActorKind): boolean {
  const allowed: readonly ActorKind[] = MOVES[move].by;
  return allowed.includes(actor);
}

// The states a move leaves, as a set to test a status against (the dashboard's buttons, the expiry job).
export const canMove = (move: MoveName, status: TaskStatus): boolean => (MOVES[move].from as readonly TaskStatus[]).includes(status);
