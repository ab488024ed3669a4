// Billing: the saved card, credit balances and purchases, payouts to agent owners.
import { builder } from './builder.js';
import { readableWith } from './kind-scopes.js';
import { PublicAgentRef } from './agents.js';
import { paymentMethodId, type BillingSummary } from '../services/billing.js';
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

const PayoutSummary = builder.objectRef<BillingSummary['payouts']>('PayoutSummary').implement({
  fields: (t) => ({
    connected: t.exposeBoolean('connected', { description: 'A connected account receives the owner’s share of completed tasks' }),
    owedCents: t.exposeInt('owedCents', { description: 'Shares of completed tasks not transferred yet (no connected account, or in progress)' }),
  }),
});

const Billing = builder.objectRef<BillingSummary>('Billing').implement({
  fields: (t) => ({
    card: t.field({ type: CardSummary, nullable: true, resolve: (b) => b.card }),
    credits: t.field({ type: [CreditBalanceRef], resolve: (b) => b.credits as never }),
    payouts: t.field({ type: PayoutSummary, resolve: (b) => b.payouts }),
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
