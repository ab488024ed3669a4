import { builder } from './builder.js';
import { COUNTED_WORDS } from '../stores/counted-tasks.js';
import { readableWith } from './kind-scopes.js';
import { AgentStatusEnum, DeliveryModeEnum, HealthStatusEnum, TrustTierEnum } from './enums.js';
import { agentInput } from '../services/agent-input.js';
import { DEFAULT_SECRET_GRACE_SECONDS, graceSeconds } from '../services/webhook-secret-input.js';

// Two views of an agent. PublicAgent is what anyone may read (discovery, routing dry-runs, credit
// balances): the spec's discovery detail fields, plus the price a requester pays, the public trust badge
// and the track record (`stats`, in reputation.ts). Agent is the owner's full record, with how it is
// configured (manifestUrl, hasWebhookSecret) and the raw trustScore.
export const AgentRef = builder.prismaObject('Agent', {
  authScopes: readableWith('agents:read', 'agents:write'),
  description: "An agent as its owner sees it: every field. Other callers get PublicAgent.",
});
export const PublicAgentRef = builder.prismaObject('Agent', {
  variant: 'PublicAgent',
  description: 'An agent as anyone may see it',
});

for (const ref of [AgentRef, PublicAgentRef]) {
  builder.prismaObjectFields(ref, (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    description: t.exposeString('description'),
    longDescription: t.exposeString('longDescription'),
    endpoint: t.exposeString('endpoint', { description: 'Where tasks are pushed; empty for an agent that pulls them' }),
    deliveryMode: t.expose('deliveryMode', { type: DeliveryModeEnum }),
    protocols: t.exposeStringList('protocols'),
    categories: t.exposeStringList('categories'),
    capabilities: t.exposeStringList('capabilities'),
    tags: t.exposeStringList('tags'),
    docsUrl: t.exposeString('docsUrl', { nullable: true }),
    authType: t.exposeString('authType', { nullable: true }),
    version: t.exposeString('version', { nullable: true }),
    inputSchema: t.exposeString('inputSchema', { nullable: true, description: 'JSON Schema of the task input, as a JSON string' }),
    twitterUrl: t.exposeString('twitterUrl', { nullable: true }),
    status: t.expose('status', { type: AgentStatusEnum }),
    verified: t.exposeBoolean('verified'),
    healthStatus: t.expose('healthStatus', { type: HealthStatusEnum }),
    trustTier: t.expose('trustTier', { type: TrustTierEnum }),
    priceCents: t.exposeInt('priceCents', { description: 'Price of one task, in cents' }),
    taskCount: t.exposeInt('taskCount', { description: COUNTED_WORDS.taskCount }),
    avgRating: t.float({
      nullable: true,
      description: 'The plain average of the ratings that count (ratingCount of them); null without any',
      resolve: (agent) => (agent.ratingCount > 0 ? Math.round((agent.ratingSum / agent.ratingCount) * 100) / 100 : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }));
}

builder.prismaObjectFields(AgentRef, (t) => ({
  manifestUrl: t.exposeString('manifestUrl', { nullable: true }),
  trustScore: t.exposeFloat('trustScore', {
    description: 'Composite trust, 0 to 1, from the finished tasks that count (completedCount and failedCount, the recent success rate), the ratings that count, health and verification',
  }),
  hasWebhookSecret: t.boolean({
    description: 'Whether deliveries are signed. The secret itself is never part of an agent record.',
    resolve: (agent) => agent.webhookSecretEnc !== null,
  }),
  signingPublicKey: t.exposeString('signingPublicKey', {
    nullable: true,
    description: "The agent's Ed25519 public key (whpk_…): deliveries carry a v1a signature made with its private key. Null for an agent made before keys existed, until rotateAgentSigningKey",
  }),
  previousSigningPublicKey: t.string({
    nullable: true,
    description: "During a key rotation's overlap: the key it replaced, which still signs until previousSigningKeyExpiresAt",
    resolve: (agent, _args, ctx) => (agent.previousSigningKeyExpiresAt && agent.previousSigningKeyExpiresAt > ctx.services.deps.clock.now() ? agent.previousSigningPublicKey : null),
  }),
  previousSigningKeyExpiresAt: t.field({
    type: 'DateTime',
    nullable: true,
    resolve: (agent, _args, ctx) => (agent.previousSigningKeyExpiresAt && agent.previousSigningKeyExpiresAt > ctx.services.deps.clock.now() ? agent.previousSigningKeyExpiresAt : null),
  }),
  previousWebhookSecretExpiresAt: t.field({
    type: 'DateTime',
    nullable: true,
    description: 'While a rotated-out secret still signs deliveries (beside the current one): when it stops',
    select: { previousWebhookSecretEnc: true, previousWebhookSecretExpiresAt: true },
    resolve: (agent, _args, ctx) => ctx.services.agents.previousWebhookSecretExpiresAt(agent),
  }),
}));

const agentInputFields = (required: boolean) => (t: PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<never>, 'InputObject'>) => ({
  name: t.string({ required }),
  description: t.string(),
  longDescription: t.string(),
  endpoint: t.string({ description: 'Required unless deliveryMode is pull' }),
  deliveryMode: t.field({ type: DeliveryModeEnum, description: 'push (the default): tasks go to endpoint; pull: the agent claims them' }),
  protocols: t.stringList(),
  categories: t.stringList(),
  capabilities: t.stringList(),
  tags: t.stringList(),
  docsUrl: t.string(),
  manifestUrl: t.string(),
  authType: t.string(),
  version: t.string(),
  inputSchema: t.string({ description: 'A JSON Schema, as a string holding JSON' }),
  twitterUrl: t.string(),
  priceCents: t.int(),
  status: t.field({ type: AgentStatusEnum }),
  maxConcurrentTasks: t.int({ description: 'Tasks in flight at once before routing prefers other agents; null: no limit' }),
  maxDeliveriesPerSecond: t.int({ description: 'Delivery attempts per second; more wait in the queue; null: no limit' }),
});

// The limits of every field are agentInput's (services/agent-input.ts); GraphQL states only the types.
const AgentCreateInput = builder.inputType('AgentCreateInput', { fields: agentInputFields(true) as never }).validate(agentInput);
const AgentUpdateInput = builder.inputType('AgentUpdateInput', { fields: agentInputFields(false) as never }).validate(agentInput);

const WebhookSecretResult = builder
  .objectRef<{ webhookSecret: string; message: string; previousSecretExpiresAt: Date | null }>('WebhookSecretResult')
  .implement({
    fields: (t) => ({
      webhookSecret: t.exposeString('webhookSecret', { description: 'Shown only here. Deliveries are signed with it from now on.' }),
      message: t.exposeString('message'),
      previousSecretExpiresAt: t.expose('previousSecretExpiresAt', {
        type: 'DateTime',
        nullable: true,
        description: 'Until then deliveries are signed with the previous secret too; null when it stopped at once (or there was none)',
      }),
    }),
  });

const SigningKeyResult = builder
  .objectRef<{ signingPublicKey: string; previousSigningPublicKey: string | null; previousKeyExpiresAt: Date | null }>('SigningKeyResult')
  .implement({
    fields: (t) => ({
      signingPublicKey: t.exposeString('signingPublicKey', { description: 'The public key (whpk_…) the v1a signatures verify with from now on' }),
      previousSigningPublicKey: t.exposeString('previousSigningPublicKey', { nullable: true, description: 'The key it replaced, still signing until previousKeyExpiresAt' }),
      previousKeyExpiresAt: t.expose('previousKeyExpiresAt', { type: 'DateTime', nullable: true }),
    }),
  });

const DeleteResult = builder.objectRef<{ id: string; message: string }>('DeleteResult').implement({
  fields: (t) => ({ id: t.exposeID('id'), message: t.exposeString('message') }),
});

builder.queryFields((t) => ({
  myAgents: t.prismaField({
    type: ['Agent'],
    description: 'All agents the caller owns',
    authScopes: { scope: 'agents:read' },
    resolve: (query, _root, _args, ctx) => ctx.prisma.agent.findMany({ ...query, where: { ownerId: ctx.viewer!.id }, orderBy: { createdAt: 'asc' } }),
  }),
  myAgent: t.prismaField({
    type: 'Agent',
    description: 'One agent the caller owns',
    authScopes: { scope: 'agents:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      ctx.services.agents.mustOwn(ctx.viewer!, await ctx.prisma.agent.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
}));

builder.mutationFields((t) => ({
  createAgent: t.prismaField({
    type: 'Agent',
    authScopes: { scope: 'agents:write' },
    args: { input: t.arg({ type: AgentCreateInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const id = await ctx.services.agents.create(ctx.viewer!, args.input);
      return ctx.prisma.agent.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateAgent: t.prismaField({
    type: 'Agent',
    authScopes: { scope: 'agents:write' },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: AgentUpdateInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const id = await ctx.services.agents.update(ctx.viewer!, String(args.id), args.input);
      return ctx.prisma.agent.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  deleteAgent: t.field({
    type: DeleteResult,
    authScopes: { scope: 'agents:write' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await ctx.services.agents.remove(ctx.viewer!, String(args.id));
      return { id: String(args.id), message: 'Agent deleted' };
    },
  }),
  rotateAgentWebhookSecret: t.field({
    type: WebhookSecretResult,
    description: 'Generates the webhook secret, or replaces it; the previous one keeps signing deliveries too for graceSeconds (default 86400, at most 604800, 0 ends it at once)',
    authScopes: { scope: 'agents:write' },
    args: { id: t.arg.id({ required: true }), graceSeconds: t.arg.int({ required: false }).validate(graceSeconds) },
    resolve: async (_root, args, ctx) => {
      const rotated = await ctx.services.agents.rotateWebhookSecret(ctx.viewer!, String(args.id), args.graceSeconds ?? DEFAULT_SECRET_GRACE_SECONDS);
      return {
        webhookSecret: rotated.secret,
        previousSecretExpiresAt: rotated.previousSecretExpiresAt,
        message: rotated.previousSecretExpiresAt
          ? 'Store this secret now: it will not be shown again. Deliveries are signed with it and, until previousSecretExpiresAt, with the previous secret too.'
          : 'Store this secret now: it will not be shown again. Deliveries are signed with it from now on.',
      };
    },
  }),
  rotateAgentSigningKey: t.field({
    type: SigningKeyResult,
    description:
      "Makes the agent's Ed25519 key pair for Standard Webhooks' v1a signature, or replaces it; the previous key keeps signing too for graceSeconds (default 86400, at most 604800, 0 ends it at once)",
    authScopes: { scope: 'agents:write' },
    args: { id: t.arg.id({ required: true }), graceSeconds: t.arg.int({ required: false }).validate(graceSeconds) },
    resolve: (_root, args, ctx) => ctx.services.agents.rotateSigningKey(ctx.viewer!, String(args.id), args.graceSeconds ?? DEFAULT_SECRET_GRACE_SECONDS),
  }),
  removeAgentWebhookSecret: t.prismaField({
    type: 'Agent',
    description: 'Turns delivery signing off',
    authScopes: { scope: 'agents:write' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      await ctx.services.agents.removeWebhookSecret(ctx.viewer!, String(args.id));
      return ctx.prisma.agent.findUniqueOrThrow({ ...query, where: { id: String(args.id) } });
    },
  }),
}));
