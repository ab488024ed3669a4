// The /v1 route table.
import type { Route } from '../route.js';
import { agentRoutes } from './agents.js';

export const routes: Route[] = [...agentRoutes];
