// Billing: the saved card, credit balances and purchases, payouts to agent owners.
import { builder } from './builder.js';
import { readableWith } from './kind-scopes.js';
import { PublicAgentRef } from './agents.js';
import { MAX_BILLING_ROWS, paymentMethodId, type BillingSummary } from '../services/billing.js';
import type { EarningRow, PaymentHistoryRow } from '../stores/billing-store.js';
import { PaymentMethodEnum, PaymentStatusEnum } from './task-payment.js';
import { purchaseInput } from '../services/credits.js';

export const CreditBalanceRef = builder.prismaObject('CreditBalance', {
  authScopes: readableWith('billing'),
  description: "The caller's credits for one agent; each pays for one task of that agent",
  fields: (t) => ({
    agentId: t.exposeID('agentId'),
    balance: t.exposeInt('balance'),
    agent: t.relation('agent', { type: PublicAgentRef }),
  }),
});

const CardSummary = builder.objectRef<NonNullable<BillingSummary['card']>>('CardSummary').implement({
  description: 'The saved default card, for display only',
  fields: (t) => ({
    brand: t.exposeString('brand', { nullable: true }),
    last4: t.exposeString('last4', { nullable: true }),
  }),
});

const PayoutOnboardingStateEnum = builder.enumType('PayoutOnboardingState', {
  description: 'Where payout onboarding stands, as the payment processor says',
  values: {
    not_started: { description: 'No payout account yet' },
    details_needed: { description: 'The processor still needs details from the owner: resume the onboarding' },
    pending: { description: 'Details given; the processor is checking them' },
    enabled: { description: 'Transfers are paid out' },
  } as const,
});

const TransferStateEnum = builder.enumType('TransferState', {
  values: {
    owed: { description: 'Not transferred yet: no payout account, or the transfer is in progress' },
    transferred: { description: "Sent to the owner's payout account" },
    not_payable: { description: 'The capture failed, so no money came in for it' },
  } as const,
});

const maxRows = (first: number | null | undefined) => Math.max(1, Math.min(first ?? 50, MAX_BILLING_ROWS));

const Earning = builder.objectRef<EarningRow>('Earning').implement({
  description: "The owner's share of one captured task payment",
  fields: (t) => ({
    taskId: t.exposeID('taskId'),
    taskTitle: t.exposeString('taskTitle'),
    agentName: t.exposeString('agentName', { nullable: true, description: 'Null when the agent was deleted since' }),
    amountCents: t.exposeInt('amountCents', { description: 'What the requester paid' }),
    feeCents: t.exposeInt('feeCents', { description: 'The platform fee kept from it' }),
    netCents: t.int({ description: 'The owner’s share: amount less fee', resolve: (e) => e.amountCents - e.feeCents }),
    capturedAt: t.expose('settledAt', { type: 'DateTime', nullable: true }),
    transfer: t.field({
      type: TransferStateEnum,
      resolve: (e) => (e.transferId ? 'transferred' : e.failureMessage ? 'not_payable' : 'owed'),
    }),
    transferredAt: t.expose('transferredAt', { type: 'DateTime', nullable: true }),
  }),
});

const PayoutSummary = builder.objectRef<BillingSummary['payouts']>('PayoutSummary').implement({
  fields: (t) => ({
    connected: t.exposeBoolean('connected', { description: 'A connected account receives the owner’s share of completed tasks' }),
    owedCents: t.exposeInt('owedCents', { description: 'Shares of completed tasks not transferred yet (no connected account, or in progress)' }),
    transferredCents: t.int({
      description: 'Shares already transferred to the payout account',
      resolve: async (p, _args, ctx) => (await ctx.services.billing.earningTotals(p.userId)).transferredCents,
    }),
    onboarding: t.field({
      type: PayoutOnboardingStateEnum,
      description: 'Asked of the payment processor',
      resolve: (p, _args, ctx) => ctx.services.billing.payoutOnboardingState(p.userId),
    }),
    earnings: t.field({
      type: [Earning],
      description: `Shares of captured card payments, newest first (at most ${MAX_BILLING_ROWS})`,
      args: { first: t.arg.int() },
      resolve: (p, args, ctx) => ctx.services.billing.earnings(p.userId, maxRows(args.first)),
    }),
  }),
});

const PaymentRecord = builder.objectRef<PaymentHistoryRow>('PaymentRecord').implement({
  description: 'One paid task of the requester',
  fields: (t) => ({
    taskId: t.exposeID('taskId'),
    taskTitle: t.exposeString('taskTitle'),
    agentName: t.exposeString('agentName', { nullable: true }),
    agentSlug: t.exposeString('agentSlug', { nullable: true }),
    method: t.expose('method', { type: PaymentMethodEnum }),
    status: t.expose('status', { type: PaymentStatusEnum }),
    amountCents: t.exposeInt('amountCents'),
    cardBrand: t.exposeString('cardBrand', { nullable: true }),
    cardLast4: t.exposeString('cardLast4', { nullable: true }),
    heldAt: t.expose('heldAt', { type: 'DateTime', nullable: true }),
    settledAt: t.expose('settledAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    receiptUrl: t.exposeString('receiptUrl', { nullable: true, description: "The payment processor's receipt page, where it has one" }),
  }),
});

const Billing = builder.objectRef<BillingSummary>('Billing').implement({
  fields: (t) => ({
    card: t.field({ type: CardSummary, nullable: true, resolve: (b) => b.card }),
    credits: t.field({ type: [CreditBalanceRef], resolve: (b) => b.credits as never }),
    payouts: t.field({ type: PayoutSummary, resolve: (b) => b.payouts }),
    payments: t.field({
      type: [PaymentRecord],
      description: `The caller's paid tasks, newest first (at most ${MAX_BILLING_ROWS})`,
      args: { first: t.arg.int() },
      resolve: (b, args, ctx) => ctx.services.billing.paymentHistory(b.userId, maxRows(args.first)),
    }),
    spentThisMonthCents: t.int({
      description: 'Charged this calendar month (UTC): captured card payments and credit purchases',
      resolve: (b, _args, ctx) => ctx.services.billing.spentThisMonthCents(b.userId),
    }),
  }),
});

const SetupIntent = builder.objectRef<{ clientSecret: string }>('SetupIntent').implement({
  fields: (t) => ({
    clientSecret: t.exposeString('clientSecret', { description: "Give to the payment processor's client library to collect a card" }),
  }),
});

const CreditPurchase = builder
  .objectRef<{ agentId: string; quantity: number; amountCents: number; balance: number }>('CreditPurchase')
  .implement({
    fields: (t) => ({
      agentId: t.exposeID('agentId'),
      quantity: t.exposeInt('quantity'),
      amountCents: t.exposeInt('amountCents', { description: 'Charged to the saved card: quantity × the agent’s price' }),
      balance: t.exposeInt('balance', { description: 'Credits for this agent after the purchase' }),
    }),
  });

const PayoutOnboarding = builder.objectRef<{ url: string }>('PayoutOnboarding').implement({
  fields: (t) => ({ url: t.exposeString('url', { description: 'Hosted onboarding of the connected account; short-lived' }) }),
});

const SetDefaultPaymentMethodInput = builder.inputType('SetDefaultPaymentMethodInput', {
  fields: (t) => ({ paymentMethodId: t.string({ required: true, description: 'The pm_… id the client library returned' }).validate(paymentMethodId) }),
});

const BuyCreditsInput = builder.inputType('BuyCreditsInput', {
  fields: (t) => ({ agentId: t.id({ required: true }), quantity: t.int({ required: true }) }),
}).validate(purchaseInput);

builder.queryFields((t) => ({
  billing: t.field({
    type: Billing,
    description: "The caller's saved card, credit balances and payouts",
    authScopes: { scope: 'billing' },
    resolve: (_root, _args, ctx) => ctx.services.billing.summary(ctx.viewer!),
  }),
}));

builder.mutationFields((t) => ({
  createSetupIntent: t.field({
    type: SetupIntent,
    description: 'Starts saving a card',
    authScopes: { scope: 'billing' },
    resolve: (_root, _args, ctx) => ctx.services.billing.createSetupIntent(ctx.viewer!),
  }),
  setDefaultPaymentMethod: t.field({
    type: Billing,
    description: 'Makes a saved card the default: later tasks are authorized on it at creation',
    authScopes: { scope: 'billing' },
    args: { input: t.arg({ type: SetDefaultPaymentMethodInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.services.billing.setDefaultPaymentMethod(ctx.viewer!, args.input.paymentMethodId),
  }),
  removePaymentMethod: t.field({
    type: Billing,
    description: 'Removes the saved card; later tasks wait for their holds to be confirmed',
    authScopes: { scope: 'billing' },
    resolve: (_root, _args, ctx) => ctx.services.billing.removePaymentMethod(ctx.viewer!),
  }),
  buyCredits: t.field({
    type: CreditPurchase,
    description: 'Buys credits for one agent with the saved card',
    authScopes: { scope: 'billing' },
    args: {
      input: t.arg({ type: BuyCreditsInput, required: true }),
      idempotencyKey: t.arg.string({ description: 'The same key charges once, however often the purchase is repeated' }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.credits.buy(ctx.viewer!, args.input, args.idempotencyKey ?? null),
  }),
  startPayoutOnboarding: t.field({
    type: PayoutOnboarding,
    description: "Creates the owner's connected account if needed and returns its onboarding link",
    authScopes: { scope: 'billing' },
    resolve: (_root, _args, ctx) => ctx.services.billing.startPayoutOnboarding(ctx.viewer!),
  }),
}));
