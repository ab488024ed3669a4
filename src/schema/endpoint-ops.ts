// The owner's operations on an agent's endpoint: test ping and signature conformance check.
import type { RecoverResult } from '../services/delivery-recovery.js';
import { recoverSince, recoverUntil } from '../services/delivery-input.js';
import type { CheckResult, PingResult } from '../services/webhook-tools.js';
import { builder } from './builder.js';
import { readableWith } from './kind-scopes.js';
import { AgentRef } from './agents.js';
import { accountInput, notificationListLimit } from '../services/notification-input.js';

const WebhookPingResultRef = builder.objectRef<PingResult>('WebhookPingResult').implement({
  description: 'What the agent answered to a signed ping',
  fields: (t) => ({
    ok: t.exposeBoolean('ok', { description: 'The endpoint answered 2xx' }),
    statusCode: t.exposeInt('statusCode', { nullable: true }),
    latencyMs: t.exposeInt('latencyMs'),
    error: t.exposeString('error', { nullable: true, description: 'Why no answer came (timeout, refused address, …)' }),
    bodyStart: t.exposeString('bodyStart', { nullable: true, description: 'The first 512 bytes of the answer' }),
    signed: t.exposeBoolean('signed', { description: 'Whether the ping was signed (the agent has a webhook secret)' }),
    at: t.expose('at', { type: 'DateTime' }),
  }),
});

const CheckCaseEnum = builder.enumType('WebhookCheckCase', { values: ['valid', 'wrong_signature', 'stale_timestamp'] as const });

const WebhookCheckRequestRef = builder.objectRef<CheckResult['requests'][number]>('WebhookCheckRequest').implement({
  fields: (t) => ({
    case: t.expose('case', { type: CheckCaseEnum }),
    statusCode: t.exposeInt('statusCode', { nullable: true }),
    latencyMs: t.exposeInt('latencyMs'),
    error: t.exposeString('error', { nullable: true }),
  }),
});

const WebhookCheckResultRef = builder.objectRef<CheckResult>('WebhookCheckResult').implement({
  description: 'Whether the endpoint verifies signatures: it must accept the valid request and refuse (4xx) the two others',
  fields: (t) => ({
    verifiesSignatures: t.exposeBoolean('verifiesSignatures'),
    acceptedValid: t.exposeBoolean('acceptedValid'),
    refusedWrongSignature: t.exposeBoolean('refusedWrongSignature'),
    refusedStaleTimestamp: t.exposeBoolean('refusedStaleTimestamp'),
    requests: t.field({ type: [WebhookCheckRequestRef], resolve: (r) => r.requests }),
  }),
});

builder.mutationFields((t) => ({
  testAgentWebhook: t.field({
    type: WebhookPingResultRef,
    description: "Sends a signed ping to one of the caller's agents and reports its answer",
    authScopes: { scope: 'agents:write' },
    args: { agentId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.webhooks.ping(ctx.viewer!, String(args.agentId)),
  }),
  checkAgentWebhook: t.field({
    type: WebhookCheckResultRef,
    description: 'Sends a correctly signed, a wrongly signed and a stale request, and reports whether the endpoint told them apart',
    authScopes: { scope: 'agents:write' },
    args: { agentId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.webhooks.check(ctx.viewer!, String(args.agentId)),
  }),
}));

const RecoverResultRef = builder.objectRef<RecoverResult>('DeliveryRecoveryResult').implement({
  fields: (t) => ({
    recovered: t.exposeInt('recovered', { description: 'How many deliveries are sent again' }),
    deliveryIds: t.exposeIDList('deliveryIds'),
    since: t.expose('since', { type: 'DateTime' }),
    until: t.expose('until', { type: 'DateTime' }),
  }),
});

builder.mutationFields((t) => ({
  recoverDeliveries: t.field({
    type: RecoverResultRef,
    description: 'Sends again, once each, the deliveries whose attempts failed between since and until (default now), for tasks still waiting for them',
    authScopes: { scope: 'agents:write' },
    args: {
      agentId: t.arg.id({ required: true }),
      since: t.arg({ type: 'DateTime', required: true }).validate(recoverSince),
      until: t.arg({ type: 'DateTime', required: false }).validate(recoverUntil),
    },
    resolve: (_root, args, ctx) => ctx.services.recovery.recover(ctx.viewer!, String(args.agentId), args.since, args.until),
  }),
}));

export const EndpointStateEnum = builder.enumType('EndpointState', {
  values: ['active', 'failing', 'disabled'] as const,
  description: 'active; failing: a delivery failed since the last success; disabled: no deliveries until the owner enables it',
});

builder.prismaObjectFields(AgentRef, (t) => ({
  deliveryState: t.expose('deliveryState', { type: EndpointStateEnum }),
  endpointFailingSince: t.expose('endpointFailingSince', { type: 'DateTime', nullable: true, description: 'The first failed attempt since the last success' }),
  endpointDisabledAt: t.expose('endpointDisabledAt', { type: 'DateTime', nullable: true }),
  maxConcurrentTasks: t.exposeInt('maxConcurrentTasks', { nullable: true }),
  maxDeliveriesPerSecond: t.exposeInt('maxDeliveriesPerSecond', { nullable: true }),
}));

builder.prismaObject('Notification', {
  authScopes: readableWith('agents:read', 'agents:write'),
  description: "An operational event about one of the caller's agents (endpoint.failing, endpoint.disabled, delivery.exhausted, delivery.recovered)",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Also the webhook-id of its POSTs' }),
    type: t.exposeString('type'),
    agentId: t.exposeID('agentId', { nullable: true }),
    data: t.field({ type: 'JSON', resolve: (n) => n.data }),
    status: t.exposeString('status', { description: 'pending, succeeded or failed: its POST to the notificationUrl' }),
    attemptCount: t.exposeInt('attemptCount'),
    lastError: t.exposeString('lastError', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaObjectFields('User', (t) => ({
  // An account setting: seen with the scope that changes it.
  notificationUrl: t.exposeString('notificationUrl', { nullable: true, authScopes: { scope: 'account' }, description: 'Where operational events are POSTed, signed' }),
}));

const AccountUpdateInput = builder
  .inputType('AccountUpdateInput', { fields: (t) => ({ notificationUrl: t.string({ description: 'An absolute http(s) URL; null or "" removes it' }) }) })
  .validate(accountInput);

const AccountUpdateResultRef = builder
  .objectRef<{ notificationUrl: string | null; notificationSecret: string | null; message: string }>('AccountUpdateResult')
  .implement({
    fields: (t) => ({
      notificationUrl: t.exposeString('notificationUrl', { nullable: true }),
      notificationSecret: t.exposeString('notificationSecret', {
        nullable: true,
        description: 'The secret notifications are signed with: shown only in the answer that created it',
      }),
      message: t.exposeString('message'),
    }),
  });

builder.queryFields((t) => ({
  myNotifications: t.prismaField({
    type: ['Notification'],
    description: "Operational events about the caller's agents, newest first",
    authScopes: { scope: 'agents:read' },
    args: { limit: t.arg.int({ defaultValue: 50 }).validate(notificationListLimit) },
    resolve: (query, _root, args, ctx) => ctx.prisma.notification.findMany({ ...query, where: { userId: ctx.viewer!.id }, orderBy: { id: 'desc' }, take: args.limit ?? 50 }),
  }),
}));

builder.mutationFields((t) => ({
  enableAgentEndpoint: t.prismaField({
    type: 'Agent',
    description: 'Enables a disabled endpoint again, after a test ping it answered 2xx',
    authScopes: { scope: 'agents:write' },
    args: { agentId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      await ctx.services.endpointHealth.enable(ctx.viewer!, String(args.agentId));
      return ctx.prisma.agent.findUniqueOrThrow({ ...query, where: { id: String(args.agentId) } });
    },
  }),
  updateAccount: t.field({
    type: AccountUpdateResultRef,
    description: 'Sets where operational events are sent (notificationUrl); the first time, the answer shows their signing secret',
    authScopes: { scope: 'account' },
    args: { input: t.arg({ type: AccountUpdateInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      const r = await ctx.services.notifications.updateAccount(ctx.viewer!, args.input);
      return {
        ...r,
        message: r.notificationSecret
          ? 'Store notificationSecret now: it will not be shown again. Notifications are signed with it.'
          : r.notificationUrl
            ? 'Notifications go to notificationUrl, signed with the secret you were given.'
            : 'No notificationUrl: events are listed only.',
      };
    },
  }),
}));
