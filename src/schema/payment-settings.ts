// What the dashboard needs before it can pay: the processor, its client library's publishable key and
// whether money is real (public), and for a task waiting for its card hold, the secret the requester's
// client library confirms it with.
import { builder } from './builder.js';
import type { PaymentSettings } from '../services/billing.js';
import type { HoldConfirmation } from '../services/payments/hold-confirmation.js';

const PaymentProcessorEnum = builder.enumType('PaymentProcessor', { values: ['simulated', 'stripe'] as const });

const PaymentSettingsRef = builder.objectRef<PaymentSettings>('PaymentSettings').implement({
  description: 'How payments are taken on this service. Public.',
  fields: (t) => ({
    processor: t.field({ type: PaymentProcessorEnum, resolve: (s) => s.processor }),
    publishableKey: t.exposeString('publishableKey', {
      nullable: true,
      description: "Stripe's publishable key for Stripe.js (safe to show); null with the simulated processor",
    }),
    testMode: t.exposeBoolean('testMode', { description: 'No real money moves: the simulated processor, or Stripe test keys' }),
  }),
});

const HoldConfirmationRef = builder.objectRef<HoldConfirmation>('HoldConfirmation').implement({
  description: "A task's card hold waiting for its requester",
  fields: (t) => ({
    clientSecret: t.exposeString('clientSecret', {
      description: "Give to the payment processor's client library (Stripe.js confirmPayment) to confirm the hold; never store it",
    }),
    amountCents: t.exposeInt('amountCents'),
  }),
});

builder.queryFields((t) => ({
  paymentSettings: t.field({
    type: PaymentSettingsRef,
    description: 'The payment processor, its publishable key and whether this is test mode. Public.',
    resolve: (_root, _args, ctx) => ctx.services.billing.settings(),
  }),
  taskHoldConfirmation: t.field({
    type: HoldConfirmationRef,
    nullable: true,
    description:
      "The task's requester: the client secret to confirm its card hold with, while the hold waits for them (again after a declined or abandoned attempt). Null when there is nothing to confirm.",
    authScopes: { scope: 'tasks:write' },
    args: { taskId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.payments.holdConfirmation(ctx.viewer!, String(args.taskId)),
  }),
}));
