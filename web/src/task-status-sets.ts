// The dashboard's sets of task states, all from the lifecycle the service runs (web/src/lifecycle.ts);
// test/unit/task-lifecycle.test.ts checks them against it.
import { HAS_RESULT, TERMINAL, WORKING, type NonTerminalStatus, type TaskStatus } from './lifecycle.js';

// The live page ends in these.
export const FINISHED: ReadonlySet<TaskStatus> = new Set(TERMINAL);
// A result is shown once the agent gave it: for review, in a dispute, and after.
export const SHOWS_RESULT: ReadonlySet<TaskStatus> = new Set(HAS_RESULT);
// The agent's owner works on the task in these states (complete, ask for input).
export const OWNER_WORKS: ReadonlySet<TaskStatus> = new Set(WORKING);

// The steps of a task under way, as the progress bar shows them.
export const PROGRESS_STEPS: ReadonlyArray<[TaskStatus, string]> = [
  ['pending', 'Waiting for an agent'],
  ['matched', 'Sent to the agent'],
  ['in_progress', 'Agent working'],
  ['delivered', 'Result in'],
];
// The step each state under way stands at: a new state fails to compile here until it is placed.
export const STEP_OF: Record<NonTerminalStatus, number> = { pending: 0, matched: 1, in_progress: 2, input_required: 2, delivered: 3, disputed: 3 };
