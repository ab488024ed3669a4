// Agents that speak A2A, made from their agent cards: import one from its card URL, and refresh it from
// the card it was made from (manifestUrl). The card is fetched and judged in agent-card-load.ts; the
// agent is created and changed through the agent service like any other, so slugs, endpoint checks and
// search indexing are the same.
import type { Deps } from '../deps.js';
import type { Prisma } from '../generated/prisma/client.js';
import { conflict } from '../errors.js';
import { agentFieldsOf, loadCard, type LoadedCard } from './agent-card-load.js';
import type { AgentInput } from './agent-input.js';
import type { Viewer } from './accounts.js';
import type { agentService } from './agents.js';

type AgentQuery = { include?: Prisma.AgentInclude };

export function agentCardService(deps: Deps, agents: ReturnType<typeof agentService>) {
  const { config, clock, deadlines } = deps;
  const load = (cardUrl: string) => loadCard(cardUrl, { timeoutMs: config.deliveryTimeoutMs, allowPrivate: config.allowPrivateEndpoints, deadlines });

  // The card's own columns ride along with the agent's fields in the same write.
  const withCard = (fields: AgentInput, loaded: LoadedCard) =>
    ({ ...fields, a2aCard: loaded.json as Prisma.InputJsonValue, cardVerified: loaded.verified, cardFetchedAt: clock.now() }) as AgentInput;

  return {
    async importCard(viewer: Viewer, cardUrl: string, query: AgentQuery = {}) {
      const loaded = await load(cardUrl);
      return agents.create(viewer, withCard(agentFieldsOf(loaded, cardUrl), loaded), query);
    },

    // The owner's price, status, categories and input schema stay; what the card says is taken again.
    async refreshCard(viewer: Viewer, id: string, query: AgentQuery = {}) {
      const agent = await agents.ownedAgent(viewer, id);
      if (!agent.manifestUrl || !agent.protocols.includes('a2a')) {
        throw conflict('this agent was not made from an A2A card: import it with POST /v1/agents/import');
      }
      const loaded = await load(agent.manifestUrl);
      return agents.update(viewer, id, withCard(agentFieldsOf(loaded, agent.manifestUrl), loaded), query);
    },
  };
}

export type AgentCardService = ReturnType<typeof agentCardService>;
