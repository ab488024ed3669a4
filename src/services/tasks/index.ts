// Tasks: creation with routing and payment, the parties' moves, the callback, expiry and the re-routing
// of tasks that found no agent yet. The rules are plain functions of a TaskContext in this folder's
// modules; this service binds them to one context, so callers say `services.tasks.create(…)`.
import type { Deps } from '../../deps.js';
import type { Task } from '../../generated/prisma/client.js';
import type { PaymentService } from '../payments/index.js';
import { taskFiles } from '../task-files.js';
import { taskRouting } from '../task-routing.js';
import { taskToken } from '../task-token.js';
import { taskTrust, type TaskInternals } from '../task-trust/index.js';
import { announce, tx, within, type TaskContext, type TaskCore } from './context.js';
import { create } from './create.js';
import { finish, finishAnnounced } from './finish.js';
import { matchAfterAuthorization } from './match.js';
import { accept, callback, cancel, complete, fail, start } from './party-moves.js';
import { get, list, loadForAgentOwner, loadForRequester, mustBeParty } from './reads.js';
import { cancelledByAgent, deliveredMove, expire, failUnpaid, markDelivered, markDeliveredIn, markUndeliverableIn } from './system-moves.js';
import type { TaskHooks } from './types.js';
import { agentChanged, explainRoute, route, routeWaiting } from './waiting.js';

export type { CreatedTask, TaskHooks, TaskWithPayment } from './types.js';
export { ROUTE_RETRY_MS } from './waiting.js';

// What the trust moves (input requests, review, disputes) use of the task rules.
function internalsOf(core: TaskCore): TaskInternals {
  return {
    tx: (work) => tx(core, work),
    within: (db, afterCommit, work) => within(core, db, afterCommit, work),
    announce: (t, afterCommit, task) => announce(core, t, afterCommit, task),
    finish: (db, afterCommit, taskId, move, options) => finish(core, db, afterCommit, taskId, move, options),
    finishAnnounced: (db, afterCommit, taskId, move, options) => finishAnnounced(core, db, afterCommit, taskId, move, options),
    loadForAgentOwner: (viewer, id) => loadForAgentOwner(core, viewer, id),
    loadForRequester: (viewer, id) => loadForRequester(core, viewer, id),
    files: core.files,
  };
}

export function taskService(deps: Deps, payments: () => PaymentService, hooks: TaskHooks) {
  const core: TaskCore = { deps, payments, hooks, files: taskFiles(deps), routing: taskRouting(deps), owners: new Map() };
  const trust = taskTrust({ deps, core: internalsOf(core) });
  const ctx: TaskContext = { ...core, trust };
  const bound = <A extends unknown[], R>(rule: (ctx: TaskContext, ...args: A) => R) => (...args: A): R => rule(ctx, ...args);
  return {
    create: bound(create),
    get: bound(get),
    mustBeParty,
    list: bound(list),
    accept: bound(accept),
    start: bound(start),
    complete: bound(complete),
    fail: bound(fail),
    cancel: bound(cancel),
    callback: bound(callback),
    route: bound(route),
    explainRoute: bound(explainRoute),
    matchAfterAuthorization: bound(matchAfterAuthorization),
    failUnpaid: bound(failUnpaid),
    routeWaiting: bound(routeWaiting),
    agentChanged: (_agentId: string) => agentChanged(ctx),
    expire: bound(expire),
    markDelivered: bound(markDelivered),
    markDeliveredIn: bound(markDeliveredIn),
    deliveredMove: bound(deliveredMove),
    cancelledByAgent: bound(cancelledByAgent),
    markUndeliverableIn: bound(markUndeliverableIn),

    requestInput: trust.requestInput,
    provideInput: trust.provideInput,
    inputTimedOut: trust.inputTimedOut,
    approve: trust.approve,
    autoApprove: trust.autoApprove,
    reject: trust.reject,
    refund: trust.refund,
    contest: trust.contest,
    disputeTimedOut: trust.disputeTimedOut,
    listDisputes: trust.listDisputes,
    resolveDispute: trust.resolveDispute,

    callbackUrl: (taskId: string) => `${deps.urls.base}/v1/tasks/${taskId}/callback`,
    tokenFor: (task: Pick<Task, 'id' | 'tokenNonce'>) => (task.tokenNonce ? taskToken(deps.serverKey, task.id, task.tokenNonce) : null),
  };
}

export type TaskService = ReturnType<typeof taskService>;
