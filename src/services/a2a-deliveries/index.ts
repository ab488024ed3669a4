// Delivery to agents that speak A2A (protocols include a2a, made from a card). Each call to the agent is
// one attempt of a Delivery, with the webhook's claim, retries, timeouts, log and redelivery
// (services/deliveries/): task.assigned and task.input send a message (message.ts), the task's input files
// go as url parts (signed links that expire with the task), and file parts of the agent's artifacts are
// kept as the task's result files (artifact-files.ts); a2a.get polls GetTask with backoff when the card
// has no push support; a2a.cancel sends CancelTask once our task is cancelled. What the agent answers,
// pushes or reports on GetTask moves our task through the task service (apply.ts).
//
// The functions take an A2AContext first; this binds them to one, so the delivery service says
// `a2a.attempt(…)`.
import type { Deps } from '../../deps.js';
import type { FileService } from '../files/index.js';
import { taskFiles } from '../task-files.js';
import type { TaskService } from '../tasks/index.js';
import { attempt } from './attempt.js';
import type { A2AContext, DeliveryMachinery } from './context.js';
import { keepArtifacts } from './keep-artifacts.js';
import { push, taskFinished } from './reports.js';

export { speaksA2A } from './context.js';
export type { A2AAttempt, Claimed, DeliveryMachinery } from './context.js';

export function a2aDeliveries(deps: Deps, tasks: TaskService, files: FileService, machinery: DeliveryMachinery) {
  const ctx: A2AContext = { deps, tasks, files, inputFiles: taskFiles(deps), machinery };
  const bound = <A extends unknown[], R>(rule: (ctx: A2AContext, ...args: A) => R) => (...args: A): R => rule(ctx, ...args);
  return {
    keepArtifacts: bound(keepArtifacts),
    attempt: bound(attempt),
    push: bound(push),
    taskFinished: bound(taskFinished),
  };
}

export type A2ADeliveries = ReturnType<typeof a2aDeliveries>;
