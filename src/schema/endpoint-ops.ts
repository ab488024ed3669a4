// The owner's operations on an agent's endpoint: test ping and signature conformance check.
import type { RecoverResult } from '../services/delivery-recovery.js';
import { recoverSince, recoverUntil } from '../services/delivery-input.js';
import type { CheckResult, PingResult } from '../services/webhook-tools.js';
import { builder } from './builder.js';

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
    authScopes: { user: true },
    args: { agentId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.webhooks.ping(ctx.viewer!, String(args.agentId)),
  }),
  checkAgentWebhook: t.field({
    type: WebhookCheckResultRef,
    description: 'Sends a correctly signed, a wrongly signed and a stale request, and reports whether the endpoint told them apart',
    authScopes: { user: true },
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
    authScopes: { user: true },
    args: {
      agentId: t.arg.id({ required: true }),
      since: t.arg({ type: 'DateTime', required: true }).validate(recoverSince),
      until: t.arg({ type: 'DateTime', required: false }).validate(recoverUntil),
    },
    resolve: (_root, args, ctx) => ctx.services.recovery.recover(ctx.viewer!, String(args.agentId), args.since, args.until),
  }),
}));
