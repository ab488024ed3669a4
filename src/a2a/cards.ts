// The A2A agent cards the marketplace serves (A2A 1.0 JSON): its own, a router whose skills are the
// registry's main capabilities, and one per public active agent, whose price, trust tier, health and
// input schema travel in the marketplace extension (MARKETPLACE_EXTENSION), since A2A skills carry no
// input schema.

export const A2A_PROTOCOL_VERSION = '1.0';

// The extension's URI, stable across deployments: it names the meaning of its params, not a place.
export const MARKETPLACE_EXTENSION = 'urn:task-marketplace:a2a:marketplace:v1';

export interface PublicAgentForCard {
  id: string;
  name: string;
  slug: string;
  description: string;
  longDescription: string;
  version: string | null;
  docsUrl: string | null;
  capabilities: string[];
  tags: string[];
  categories: string[];
  inputSchema: string | null;
  priceCents: number;
  trustTier: string;
  healthStatus: string;
  status: string;
  verified: boolean;
}

const securitySchemes = (jwt: boolean) => ({
  bearer: {
    httpAuthSecurityScheme: {
      scheme: 'Bearer',
      description: jwt
        ? 'An API key of the marketplace (tmk_…) or an access token of its identity provider'
        : 'An API key of the marketplace (tmk_…)',
      ...(jwt ? { bearerFormat: 'JWT' } : {}),
    },
  },
});

const securityRequirements = [{ schemes: { bearer: { list: [] } } }];

function jsonRpcInterface(url: string) {
  return { url, protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSION };
}

const routingParams = ['capabilities', 'protocols', 'maxPriceCents', 'agentId', 'priority', 'expiresInMinutes', 'title'];

export function marketplaceCard(base: string, opts: { jwt: boolean }) {
  return {
    name: 'Task marketplace',
    description:
      'A registry and router of AI agents. Send a message and it becomes a task for the best agent for it (or the one named in metadata.agentId), paid from your credits or saved card; follow it with GetTask, SubscribeToTask or a streaming send. Each agent also has its own card at /a2a/agents/{slug}/.well-known/agent-card.json.',
    version: '1.0.0',
    provider: { organization: 'Task marketplace', url: base },
    documentationUrl: `${base}/v1/openapi.json`,
    supportedInterfaces: [jsonRpcInterface(`${base}/a2a`)],
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extensions: [
        {
          uri: MARKETPLACE_EXTENSION,
          description: `Routing: the message's metadata may carry ${routingParams.join(', ')} (the fields of POST /v1/tasks). Tasks carry metadata.marketplace (status, agentId, payment).`,
          required: false,
          params: { routingMetadata: routingParams },
        },
      ],
    },
    securitySchemes: securitySchemes(opts.jwt),
    securityRequirements,
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['application/json', 'text/plain'],
    skills: [
      {
        id: 'route-task',
        name: 'Route a task to an agent',
        description:
          'The message text is the task’s description and its data part the task’s input; metadata.capabilities, maxPriceCents and protocols choose the agent, or metadata.agentId names one.',
        tags: ['routing', 'marketplace'],
        examples: ['Translate this paragraph into French (metadata: {"capabilities": ["translation"]})'],
        inputModes: ['text/plain', 'application/json'],
        outputModes: ['application/json'],
      },
      {
        id: 'delegate-to-agent',
        name: 'Delegate to a named agent',
        description: 'Send to /a2a/agents/{slug} (its own card) or set metadata.agentId: the task goes to that agent alone.',
        tags: ['delegation', 'marketplace'],
        examples: [],
        inputModes: ['text/plain', 'application/json'],
        outputModes: ['application/json'],
      },
      {
        id: 'follow-task',
        name: 'Follow and cancel tasks',
        description: 'GetTask, ListTasks, SubscribeToTask and CancelTask on the tasks you submitted here or through REST.',
        tags: ['tasks'],
        examples: [],
        inputModes: ['application/json'],
        outputModes: ['application/json'],
      },
    ],
  };
}

function parsedSchema(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function agentCard(base: string, agent: PublicAgentForCard, opts: { jwt: boolean }) {
  const url = `${base}/a2a/agents/${encodeURIComponent(agent.slug)}`;
  const inputSchema = parsedSchema(agent.inputSchema);
  const skills = (agent.capabilities.length ? agent.capabilities : [agent.slug]).map((capability) => ({
    id: capability,
    name: capability,
    description: `${agent.name}: ${capability}`,
    tags: [...new Set([capability, ...agent.tags])],
    examples: [],
    inputModes: ['text/plain', 'application/json'],
    outputModes: ['application/json'],
  }));
  return {
    name: agent.name,
    description: agent.longDescription || agent.description,
    version: agent.version ?? '1.0.0',
    provider: { organization: 'Task marketplace', url: `${base}/v1/discover/${encodeURIComponent(agent.slug)}` },
    ...(agent.docsUrl ? { documentationUrl: agent.docsUrl } : {}),
    supportedInterfaces: [jsonRpcInterface(url)],
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extensions: [
        {
          uri: MARKETPLACE_EXTENSION,
          description: 'The marketplace’s facts about this agent: price per task, trust tier, health, and the JSON Schema its input (the data part) must satisfy.',
          required: false,
          params: {
            agentId: agent.id,
            slug: agent.slug,
            priceCents: agent.priceCents,
            currency: 'usd',
            trustTier: agent.trustTier,
            healthStatus: agent.healthStatus,
            verified: agent.verified,
            categories: agent.categories,
            inputSchema,
          },
        },
      ],
    },
    securitySchemes: securitySchemes(opts.jwt),
    securityRequirements,
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['application/json'],
    skills,
  };
}
