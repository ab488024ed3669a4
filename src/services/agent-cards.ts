// Agents that speak A2A, made from their agent cards: import one from its card URL, and refresh it from
// the card it was made from (manifestUrl). The card is fetched and judged in agent-card-load.ts; the
// agent is created and changed through the agent service like any other, so slugs, endpoint checks and
// search indexing are the same.
import type { Deps } from '../deps.js';
import { conflict } from '../errors.js';
import { agentFieldsOf, loadCard, type LoadedCard } from './agent-card-load.js';
import type { AgentInput } from './agent-input.js';
import { json, type JsonValue } from '../stores/json.js';
import type { AgentFields } from '../stores/agent-store.js';
import type { Viewer } from './accounts/index.js';
import type { agentService } from './agents.js';

export function agentCardService(deps: Deps, agents: ReturnType<typeof agentService>) {
  const { config, clock, deadlines } = deps;
  const load = (cardUrl: string) => loadCard(cardUrl, { timeoutMs: config.deliveryTimeoutMs, allowPrivate: config.allowPrivateEndpoints, resolve: deps.resolveHost, deadlines });

  // The card's own columns ride along with the agent's fields in the same write.
  const withCard = (fields: AgentInput, loaded: LoadedCard): AgentFields => ({
    ...fields,
    a2aCard: json(loaded.json as JsonValue),
    cardVerified: loaded.verified,
    cardFetchedAt: clock.now(),
  });

  return {
    async importCard(viewer: Viewer, cardUrl: string): Promise<string> {
      const loaded = await load(cardUrl);
      return agents.create(viewer, withCard(agentFieldsOf(loaded, cardUrl), loaded));
    },

    // The owner's price, status, categories and input schema stay; what the card says is taken again.
    async refreshCard(viewer: Viewer, id: string): Promise<string> {
      const agent = await agents.ownedAgent(viewer, id);
      if (!agent.manifestUrl || !agent.protocols.includes('a2a')) {
        throw conflict('this agent was not made from an A2A card: import it with POST /v1/agents/import');
      }
      const loaded = await load(agent.manifestUrl);
      return agents.update(viewer, id, withCard(agentFieldsOf(loaded, agent.manifestUrl), loaded));
    },
  };
}

export type AgentCardService = ReturnType<typeof agentCardService>;
