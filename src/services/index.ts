// All services of one running service instance, wired to the same dependencies.
import type { Deps } from '../deps.js';
import { accountService } from './accounts.js';
import { oauthService } from './oauth.js';
import { agentService } from './agents.js';
import { agentCardService } from './agent-cards.js';
import { a2aPushService } from '../a2a/pushes.js';
import { deliveryService } from './deliveries.js';
import { paymentProviderOf, paymentService, type PaymentService } from './payments/index.js';
import { creditService } from './credits.js';
import { billingService } from './billing.js';
import { taskService } from './tasks/index.js';
import { createSearchEngine } from '../search/create-engine.js';
import { discoveryService } from './discovery.js';
import { reputationService } from './reputation.js';
import { webhookTools } from './webhook-tools.js';
import { notificationService } from './notifications.js';
import { endpointHealthService } from './endpoint-health.js';
import { deliveryRecovery } from './delivery-recovery.js';
import { deliveryRetention } from '../delivery/retention.js';
import { fileService } from './files.js';
import { openStorage } from '../files/open-storage.js';
import { measurePaymentProvider, measureSearchEngine } from '../metrics/instrument.js';
import { sessionService } from '../accounts/sessions.js';
import { passkeyService } from '../accounts/passkeys.js';
import { emailLinkService } from '../accounts/email-links.js';
import { createMailer } from '../accounts/mailer.js';

export function createServices(deps: Deps) {
  const sessions = sessionService(deps);
  const accounts = accountService(deps, sessions);
  const agents = agentService(deps);
  const agentCards = agentCardService(deps, agents);
  const discovery = discoveryService(deps, measureSearchEngine(createSearchEngine(deps), deps.metrics));
  const reputation = reputationService(deps, discovery.engine);
  // Tasks and payments call each other; the task service reaches payments through a getter.
  const tasks = taskService(deps, () => payments, {
    // A finished task is counted by the agent's recount.
    finishedJobs: (agentId) => [reputation.finishedTaskJob(agentId)],
    // A cancelled task of an A2A agent is cancelled at the agent too (CancelTask, a delivery).
    taskCancelled: (tx, task) => deliveries.a2a.taskFinished(tx, task),
  });
  const payments: PaymentService = paymentService(deps, {
    onAuthorized: (tx, taskId, afterCommit, locked) => tasks.matchAfterAuthorization(tx, afterCommit, taskId, locked),
    // A card declined while the task waited for its hold: the task cannot go ahead.
    onDeclined: async (taskId) => void (await tasks.failUnpaid(taskId, 'payment_declined')),
  }, measurePaymentProvider(paymentProviderOf(deps.config, deps.serverKey), deps.metrics));
  const credits = creditService(deps, payments.provider);
  const billing = billingService(deps, payments);
  const notifications = notificationService(deps);
  const endpointHealth = endpointHealthService(deps, notifications);
  const files = fileService(deps, openStorage(deps.config));
  const deliveries = deliveryService(deps, agents, tasks, files, {
    deliveryOutcome: (tx, agentId, ok) => reputation.deliveryOutcome(tx, agentId, ok),
    deliveryRecorded: (tx, recorded) => endpointHealth.deliveryRecorded(tx, recorded),
    deliveredWritesNothing: (agent, number, now) => {
      const health = reputation.successLeavesHealth(agent, now);
      const endpoint = endpointHealth.deliveredLeavesState(agent, number);
      return health && endpoint ? (eb) => eb.and([health(eb), endpoint(eb)]) : null;
    },
  });
  return {
    deps,
    accounts,
    oauth: oauthService(deps),
    sessions,
    passkeys: passkeyService(deps, sessions),
    emailLinks: emailLinkService(deps, sessions, createMailer(deps.config.accounts.smtpUrl, deps.config.accounts.emailFrom)),
    agents,
    agentCards,
    a2aPushes: a2aPushService(deps),
    tasks,
    payments,
    credits,
    billing,
    deliveries,
    discovery,
    reputation,
    webhooks: webhookTools(deps, agents, { pingSucceeded: (agentId) => endpointHealth.pingSucceeded(agentId) }),
    notifications,
    endpointHealth,
    recovery: deliveryRecovery(deps),
    retention: deliveryRetention(deps),
    files,
    hooks: {
      // Runs in the agent.changed job after any change to an agent.
      async agentChanged(agentId: string): Promise<void> {
        await tasks.agentChanged(agentId);
        await reputation.agentChanged(agentId);
        await discovery.agentChanged(agentId);
      },
    },
  };
}

export type Services = ReturnType<typeof createServices>;
