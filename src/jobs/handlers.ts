// What each job kind does: the worker's task list. Each handler is safe to run more than once (jobs run
// at least once, and again after a crash); most hand the payload to the service that owns the rule.
import type { JobHelpers } from 'graphile-worker';
import type { z } from 'zod';
import type { Services } from '../services/index.js';
import type { JobSpec } from './spec.js';
import { agentChanged } from './specs/agent-changed.js';
import { deliverTask } from './specs/task-deliver.js';
import { expireTask } from './specs/task-expire.js';
import { routeTask } from './specs/task-route.js';
import { inputTimeout } from './specs/task-input-timeout.js';
import { autoApprove } from './specs/task-auto-approve.js';
import { disputeTimeout } from './specs/task-dispute-timeout.js';
import { authorizePayment } from './specs/payment-authorize.js';
import { capturePayment } from './specs/payment-capture.js';
import { releasePayment } from './specs/payment-release.js';
import { transferPayment } from './specs/payment-transfer.js';
import { refundPurchase } from './specs/payment-refund-purchase.js';
import { searchSync } from './specs/search-sync.js';
import { healthSweep } from './specs/health-sweep.js';
import { healthProbe } from './specs/health-probe.js';
import { pruneDeliveries } from './specs/delivery-prune.js';
import { deliverNotification } from './specs/notification-deliver.js';
import { a2aPush } from './specs/a2a-push.js';
import { mailSignInLink } from './specs/email-sign-in-link.js';

export interface JobHandler<S extends z.ZodType = z.ZodType> {
  spec: JobSpec<S>;
  run(services: Services, payload: z.output<S>, helpers: JobHelpers): Promise<unknown>;
}

function handle<S extends z.ZodType>(spec: JobSpec<S>, run: JobHandler<S>['run']): JobHandler {
  return { spec, run } as unknown as JobHandler;
}

export const handlers: JobHandler[] = [
  handle(agentChanged, (s, { agentId }) => s.hooks.agentChanged(agentId)),
  handle(deliverTask, (s, { deliveryId }, helpers) => s.deliveries.attempt(deliveryId, helpers.job.id)),
  handle(expireTask, (s, { taskId }) => s.tasks.expire(taskId)),
  handle(routeTask, (s, { taskId }) => s.tasks.routeWaiting(taskId)),
  handle(inputTimeout, (s, { taskId, round }) => s.tasks.inputTimedOut(taskId, round)),
  handle(autoApprove, (s, { taskId }) => s.tasks.autoApprove(taskId)),
  handle(disputeTimeout, (s, { taskId }) => s.tasks.disputeTimedOut(taskId)),
  handle(authorizePayment, (s, { taskId }) => s.payments.authorizeFromJob(taskId)),
  handle(capturePayment, (s, { taskId }) => s.payments.capture(taskId)),
  handle(releasePayment, (s, { taskId, intentId }) => s.payments.release(taskId, intentId)),
  handle(transferPayment, (s, { taskId }) => s.payments.transfer(taskId)),
  handle(refundPurchase, (s, { intentId }) => s.credits.refundPurchase(intentId)),
  handle(searchSync, (s, { agentId }) => s.discovery.syncIndex(agentId)),
  handle(healthSweep, (s) => s.reputation.healthSweep()),
  handle(healthProbe, (s, { agentId }) => s.reputation.probeAgent(agentId)),
  handle(pruneDeliveries, (s) => s.retention.prune()),
  handle(deliverNotification, (s, { notificationId }) => s.notifications.attempt(notificationId)),
  handle(a2aPush, (s, { pushId }) => s.a2aPushes.send(pushId)),
  handle(mailSignInLink, (s, { emailLinkId }) => s.emailLinks.send(emailLinkId)),
];
