// The services of one running instance as the transports, the worker and the CLI see them: the interface
// they program against. The composition root (src/composition.ts) builds them; this layer names their
// types only, so no service reaches up into what builds it.
import type { Deps } from '../deps.js';
import type { AccountService, EmailLinkService, PasskeyService, SessionService } from './accounts/index.js';
import type { ReceiptService } from './receipts/index.js';
import type { OAuthService } from './oauth/index.js';
import type { AgentService } from './agents.js';
import type { AgentCardService } from './agent-cards.js';
import type { A2APushService } from './a2a-pushes.js';
import type { DeliveryService } from './deliveries/index.js';
import type { PaymentService } from './payments/index.js';
import type { CreditService } from './credits.js';
import type { BillingService } from './billing.js';
import type { TaskService } from './tasks/index.js';
import type { DiscoveryService } from './discovery.js';
import type { ReputationService } from './reputation.js';
import type { WebhookTools } from './webhook-tools.js';
import type { NotificationService } from './notifications.js';
import type { EndpointHealthService } from './endpoint-health.js';
import type { DeliveryRecovery } from './delivery-recovery.js';
import type { FileService } from './files/index.js';
import type { DeliveryRetention } from '../delivery/retention.js';

export interface Services {
  deps: Deps;
  receipts: ReceiptService;
  accounts: AccountService;
  oauth: OAuthService;
  sessions: SessionService;
  passkeys: PasskeyService;
  emailLinks: EmailLinkService;
  agents: AgentService;
  agentCards: AgentCardService;
  a2aPushes: A2APushService;
  tasks: TaskService;
  payments: PaymentService;
  credits: CreditService;
  billing: BillingService;
  deliveries: DeliveryService;
  discovery: DiscoveryService;
  reputation: ReputationService;
  webhooks: WebhookTools;
  notifications: NotificationService;
  endpointHealth: EndpointHealthService;
  recovery: DeliveryRecovery;
  retention: DeliveryRetention;
  files: FileService;
  hooks: {
    // Runs in the agent.changed job after any change to an agent.
    agentChanged(agentId: string): Promise<void>;
  };
}
