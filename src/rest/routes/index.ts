// The /v1 route table.
import type { Route } from '../route.js';
import { agentRoutes } from './agents.js';
import { agentCardRoutes } from './agent-cards.js';
import { deliveryRoutes } from './deliveries.js';
import { pullRoutes } from './pull.js';
import { receiptRoutes } from './receipts.js';
import { taskRoutes } from './tasks.js';
import { billingRoutes } from './billing.js';
import { discoveryRoutes } from './discovery.js';
import { reputationRoutes } from './reputation.js';
import { endpointOpsRoutes } from './endpoint-ops.js';
import { requesterRecordRoutes } from './requester-record.js';
import { apiKeyRoutes } from './api-keys.js';
import { connectedAppRoutes } from './connected-apps.js';

export const routes: Route[] = [...agentCardRoutes, ...agentRoutes, ...deliveryRoutes, ...pullRoutes, ...receiptRoutes, ...taskRoutes, ...billingRoutes, ...discoveryRoutes, ...reputationRoutes, ...endpointOpsRoutes, ...requesterRecordRoutes, ...apiKeyRoutes, ...connectedAppRoutes];
