import { builder } from './builder.js';

export const PaymentMethodEnum = builder.enumType('PaymentMethod', { values: ['credit', 'card', 'free'] as const });
export const PaymentStatusEnum = builder.enumType('PaymentStatus', {
  values: ['pending', 'authorized', 'captured', 'released', 'refunded'] as const,
});

// How a task is paid. Card details and processor ids are not part of it.
export const PaymentRef = builder.prismaObject('Payment', {
  fields: (t) => ({
    method: t.expose('method', { type: PaymentMethodEnum }),
    status: t.expose('status', { type: PaymentStatusEnum }),
    amountCents: t.exposeInt('amountCents'),
    autoCharged: t.exposeBoolean('autoCharged', { description: 'A saved card was authorized when the task was created' }),
  }),
});
