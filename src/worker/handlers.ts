// What each job kind does: the worker's task list. Each handler is safe to run more than once (jobs run
// at least once, and again after a crash); most hand the payload to the service that owns the rule.
import type { JobHelpers } from 'graphile-worker';
import type { z } from 'zod';
import type { Services } from '../services/index.js';
import type { JobSpec } from '../jobs/spec.js';
import { agentChanged } from '../jobs/specs/agent-changed.js';
import { agentFigures } from '../jobs/specs/agent-figures.js';
import { deliverTask } from '../jobs/specs/task-deliver.js';
import { expireTask } from '../jobs/specs/task-expire.js';
import { routeTask } from '../jobs/specs/task-route.js';
import { inputTimeout } from '../jobs/specs/task-input-timeout.js';
import { autoApprove } from '../jobs/specs/task-auto-approve.js';
import { disputeTimeout } from '../jobs/specs/task-dispute-timeout.js';
import { authorizePayment } from '../jobs/specs/payment-authorize.js';
import { capturePayment } from '../jobs/specs/payment-capture.js';
import { releasePayment } from '../jobs/specs/payment-release.js';
import { transferPayment } from '../jobs/specs/payment-transfer.js';
import { refundPurchase } from '../jobs/specs/payment-refund-purchase.js';
import { searchSync } from '../jobs/specs/search-sync.js';
import { healthSweep } from '../jobs/specs/health-sweep.js';
import { healthProbe } from '../jobs/specs/health-probe.js';
import { pruneDeliveries } from '../jobs/specs/delivery-prune.js';
import { deliverNotification } from '../jobs/specs/notification-deliver.js';
import { a2aPush } from '../jobs/specs/a2a-push.js';
import { mailSignInLink } from '../jobs/specs/email-sign-in-link.js';
import { sweepFiles } from '../jobs/specs/files-sweep.js';
import { keepArtifacts } from '../jobs/specs/a2a-keep-artifacts.js';

export interface JobHandler<S extends z.ZodType = z.ZodType> {
  spec: JobSpec<S>;
  run(services: Services, payload: z.output<S>, helpers: JobHelpers): Promise<unknown>;
}

function handle<S extends z.ZodType>(spec: JobSpec<S>, run: JobHandler<S>['run']): JobHandler {
  return { spec, run } as unknown as JobHandler;
}

export const handlers: JobHandler[] = [
  handle(agentChanged, (s, { agentId }) => s.hooks.agentChanged(agentId)),
  handle(agentFigures, (s, { agentId }) => s.reputation.recountFigures(agentId)),
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
  // The daily pruning also removes ended browser sessions, old sign-in link requests, and expired OAuth
  // codes and tokens with the apps nobody connected.
  handle(pruneDeliveries, async (s) => {
    await s.retention.prune();
    await s.sessions.prune();
    await s.emailLinks.prune();
    await s.oauth.prune();
  }),
  handle(deliverNotification, (s, { notificationId }) => s.notifications.attempt(notificationId)),
  handle(a2aPush, (s, { pushId }) => s.a2aPushes.send(pushId)),
  handle(mailSignInLink, (s, { emailLinkId }) => s.emailLinks.send(emailLinkId)),
  handle(sweepFiles, (s) => s.files.sweep()),
  handle(keepArtifacts, (s, { taskId }) => s.deliveries.a2a.keepArtifacts(taskId)),
];
