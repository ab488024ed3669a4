// Refunds a credit purchase that could not be credited: its agent was deleted while the card was charged.
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const refundPurchase = defineJob({
  name: 'payment.refund_purchase',
  payload: z.object({ intentId: z.string().min(1) }),
  subject: (p) => p.intentId,
});
