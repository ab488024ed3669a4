// All services of one running service instance, wired to the same dependencies.
import type { Deps } from '../deps.js';
import { accountService } from './accounts.js';
import { agentService } from './agents.js';

export function createServices(deps: Deps) {
  const accounts = accountService(deps);
  const agents = agentService(deps);
  return {
    deps,
    accounts,
    agents,
    hooks: {
      // Runs in the agent.changed job after any change to an agent.
      async agentChanged(_agentId: string): Promise<void> {},
    },
  };
}

export type Services = ReturnType<typeof createServices>;
