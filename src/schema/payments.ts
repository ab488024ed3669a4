// Payment operations of the GraphQL schema. The task's payment object (method, status, amountCents,
// autoCharged, the card's brand and last four, the steps' times) is PaymentRef in task-payment.ts; processor
// ids and any other card detail are deliberately not in it.
import { builder } from './builder.js';
import { PaymentStatusEnum } from './task-payment.js';

const SimulatedConfirmation = builder.objectRef<{ status: 'pending' | 'authorized' | 'captured' | 'released' | 'refunded' }>('SimulatedConfirmation').implement({
  fields: (t) => ({ status: t.expose('status', { type: PaymentStatusEnum }) }),
});

const SimulateCardConfirmationInput = builder.inputType('SimulateCardConfirmationInput', {
  fields: (t) => ({
    clientSecret: t.string({ required: true }),
    paymentMethodId: t.string({ description: 'Default pm_card_visa; pm_card_declined is declined' }),
  }),
});

builder.mutationFields((t) => ({
  simulateCardConfirmation: t.field({
    type: SimulatedConfirmation,
    description:
      "Simulated payments only (no STRIPE_SECRET_KEY), never in production: the task's requester confirms its card hold with the client secret, as the processor's client library would.",
    args: { input: t.arg({ type: SimulateCardConfirmationInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.services.payments.simulateConfirmation(ctx.viewer, args.input.clientSecret, args.input.paymentMethodId ?? undefined),
  }),
}));
