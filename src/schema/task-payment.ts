import { builder } from './builder.js';

export const PaymentMethodEnum = builder.enumType('PaymentMethod', { values: ['credit', 'card', 'free'] as const });
export const PaymentStatusEnum = builder.enumType('PaymentStatus', {
  values: ['pending', 'authorized', 'captured', 'released', 'refunded'] as const,
});

// How a task is paid. Of the card only its brand and last four digits are shown; processor ids never.
export const PaymentRef = builder.prismaObject('Payment', {
  fields: (t) => ({
    method: t.expose('method', { type: PaymentMethodEnum }),
    status: t.expose('status', { type: PaymentStatusEnum }),
    amountCents: t.exposeInt('amountCents'),
    autoCharged: t.exposeBoolean('autoCharged', { description: 'A saved card was authorized when the task was created' }),
    cardBrand: t.exposeString('cardBrand', { nullable: true, description: "The holding card's brand as the processor names it (visa, mastercard, …); null until the hold stands" }),
    cardLast4: t.exposeString('cardLast4', { nullable: true, description: "The holding card's last four digits; null until the hold stands" }),
    heldAt: t.expose('heldAt', { type: 'DateTime', nullable: true, description: 'When the card hold stood, or the credit was taken' }),
    settledAt: t.expose('settledAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the payment became captured, released or refunded (its status says which)',
    }),
  }),
});
