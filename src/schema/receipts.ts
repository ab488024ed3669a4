// Checking a receipt: anyone may ask whether one is genuine (no credentials), bounded in size.
import { z } from 'zod';
import { builder } from './builder.js';
import { MAX_RECEIPT_CHARS, type ReceiptCheck } from '../services/receipts/index.js';

const ReceiptCheckRef = builder.objectRef<ReceiptCheck>('ReceiptCheck').implement({
  fields: (t) => ({
    valid: t.exposeBoolean('valid'),
    kid: t.string({ nullable: true, description: 'The key that signed it', resolve: (c) => (c.valid ? c.kid : null) }),
    payload: t.field({ type: 'JSON', nullable: true, description: 'What the receipt states, when genuine', resolve: (c) => (c.valid ? c.payload : null) }),
    reason: t.string({ nullable: true, description: 'Why it is not genuine', resolve: (c) => (c.valid ? null : c.reason) }),
  }),
});

builder.mutationFields((t) => ({
  verifyReceipt: t.field({
    type: ReceiptCheckRef,
    description: "Whether a task receipt was signed by this service with a key it publishes now",
    args: { receipt: t.arg.string({ required: true }).validate(z.string().min(1, 'must not be empty').max(MAX_RECEIPT_CHARS, `must be at most ${MAX_RECEIPT_CHARS} characters`)) },
    resolve: (_root, args, ctx) => ctx.services.receipts.verify(args.receipt),
  }),
}));
