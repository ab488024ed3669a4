// Agents made from A2A agent cards (schema/agent-cards.ts).
import { graphql } from '../../generated/gql/index.js';
import { route } from '../route.js';
import { data } from '../shape.js';

export const agentCardRoutes = [
  route({
    method: 'POST',
    path: '/v1/agents/import',
    document: graphql(`
      mutation RestImportAgent($cardUrl: String!) {
        importAgent(cardUrl: $cardUrl) {
          ...AgentOwnerFields
          card
        }
      }
    `),
    summary: 'Create an agent from its A2A agent card; it receives its tasks over A2A (422: a card that cannot be fetched, is not usable or whose signature does not verify)',
    request: { body: ['cardUrl'] },
    answer: { status: 201, body: data('importAgent') },
  }),
  route({
    method: 'POST',
    path: '/v1/agents/:id/refresh-card',
    document: graphql(`
      mutation RestRefreshAgentCard($id: ID!) {
        refreshAgentCard(id: $id) {
          ...AgentOwnerFields
          card
        }
      }
    `),
    summary: 'Fetch the agent’s A2A card again from manifestUrl and take what it says',
    answer: { body: data('refreshAgentCard') },
  }),
];
