// Agents made from A2A agent cards: what the owner sees of the card, and importing or refreshing one.
import { z } from 'zod';
import { builder } from './builder.js';
import { AgentRef } from './agents.js';

type Card = { provider?: { organization?: string; url?: string }; iconUrl?: string; capabilities?: { streaming?: boolean; pushNotifications?: boolean } };
const cardOf = (agent: { a2aCard: unknown }) => (agent.a2aCard ?? null) as Card | null;

// A card's icon is shown only over https: the dashboard puts it in an <img>, and a card is the agent's
// own text (javascript:, data: or plain http: are never offered).
export const iconOf = (agent: { a2aCard: unknown }): string | null => {
  const icon = (agent.a2aCard as { iconUrl?: unknown } | null)?.iconUrl;
  return typeof icon === 'string' && /^https:\/\//i.test(icon) ? icon : null;
};

const AgentProviderRef = builder.objectRef<{ organization: string | null; url: string | null }>('AgentProvider').implement({
  description: 'Who provides an agent, as its A2A card says',
  fields: (t) => ({
    organization: t.exposeString('organization', { nullable: true }),
    url: t.exposeString('url', { nullable: true }),
  }),
});

builder.prismaObjectFields(AgentRef, (t) => ({
  card: t.field({
    type: 'JSON',
    nullable: true,
    description: 'The A2A agent card the agent was made from, as last fetched from manifestUrl',
    resolve: (agent) => agent.a2aCard as never,
  }),
  cardVerified: t.exposeBoolean('cardVerified', { description: 'A signature on the A2A card verified (JWS over the JCS-canonical card)' }),
  cardFetchedAt: t.expose('cardFetchedAt', { type: 'DateTime', nullable: true }),
  iconUrl: t.string({ nullable: true, description: "The agent's icon (https), from its A2A card", resolve: iconOf }),
  provider: t.field({
    type: AgentProviderRef,
    nullable: true,
    resolve: (agent) => {
      const provider = cardOf(agent)?.provider;
      return provider ? { organization: provider.organization ?? null, url: provider.url ?? null } : null;
    },
  }),
  streaming: t.boolean({ description: 'The A2A card declares streaming', resolve: (agent) => cardOf(agent)?.capabilities?.streaming === true }),
  pushNotifications: t.boolean({
    description: 'The A2A card declares push notifications',
    resolve: (agent) => cardOf(agent)?.capabilities?.pushNotifications === true,
  }),
}));

const cardUrl = z.string().trim().min(1, 'must not be empty').max(2048, 'must be at most 2048 characters');

builder.mutationFields((t) => ({
  importAgent: t.prismaField({
    type: 'Agent',
    description: 'An agent made from its A2A agent card (name, description, version, skills, interface); it receives its tasks over A2A',
    authScopes: { scope: 'agents:write' },
    args: { cardUrl: t.arg.string({ required: true }).validate(cardUrl) },
    resolve: async (query, _root, args, ctx) => {
      const id = await ctx.services.agentCards.importCard(ctx.viewer!, args.cardUrl);
      return ctx.prisma.agent.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  refreshAgentCard: t.prismaField({
    type: 'Agent',
    description: 'Fetches the agent’s A2A card again and takes what it says',
    authScopes: { scope: 'agents:write' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const id = await ctx.services.agentCards.refreshCard(ctx.viewer!, String(args.id));
      return ctx.prisma.agent.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));
