// The composition root: all services of one running service instance, wired to the same dependencies
// and to each other (the hooks by which one service hears of another's moves), with the adapters they
// are given from above (A2A's push body). It sits above the services and the transports: the process
// (main.ts, cli/run.ts) builds the services here and hands them to the transports as `Services`
// (services/index.ts), the interface they program against.
import type { Deps } from './deps.js';
import { accountServices } from './services/accounts/index.js';
import { receiptService } from './services/receipts/index.js';
import { oauthService } from './services/oauth/index.js';
import { agentService } from './services/agents.js';
import { agentCardService } from './services/agent-cards.js';
import { a2aPushService } from './services/a2a-pushes.js';
import { a2aPushBody } from './a2a/push-body.js';
import type { Services } from './services/index.js';
import { deliveryService } from './services/deliveries/index.js';
import { paymentProviderOf, paymentService, type PaymentService } from './services/payments/index.js';
import { creditService } from './services/credits.js';
import { billingService } from './services/billing.js';
import { taskService } from './services/tasks/index.js';
import { createSearchEngine } from './search/create-engine.js';
import { discoveryService } from './services/discovery.js';
import { reputationService } from './services/reputation.js';
import { webhookTools } from './services/webhook-tools.js';
import { notificationService } from './services/notifications.js';
import { endpointHealthService } from './services/endpoint-health.js';
import { deliveryRecovery } from './services/delivery-recovery.js';
import { deliveryRetention } from './delivery/retention.js';
import { fileService } from './services/files/index.js';
import { openStorage } from './files/open-storage.js';
import { measurePaymentProvider, measureSearchEngine } from './metrics/instrument.js';
import { createMailer } from './mail/mailer.js';

export function createServices(deps: Deps): Services {
  const { accounts, sessions, passkeys, emailLinks } = accountServices(deps, createMailer(deps.config.accounts.smtpUrl, deps.config.accounts.emailFrom));
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
      return health && endpoint ? { health, endpointChanges: endpoint } : null;
    },
  });
  return {
    deps,
    receipts: receiptService(deps),
    accounts,
    oauth: oauthService(deps),
    sessions,
    passkeys,
    emailLinks,
    agents,
    agentCards,
    a2aPushes: a2aPushService(deps, a2aPushBody),
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

export type { Services };
