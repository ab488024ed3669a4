import { describe, expect, it } from 'vitest';
import { paymentFromJson } from '../../src/stores/payment-store.js';

// A payment as jsonObjectFrom nests it in a task's row: snake_case keys, times as text.
const nested = {
  id: 'pay_1',
  task_id: 'tsk_1',
  method: 'card',
  status: 'captured',
  amount_cents: 500,
  fee_cents: 50,
  auto_charged: false,
  provider: 'simulated',
  intent_id: 'pi_1',
  transfer_id: null,
  payee_id: 'usr_1',
  failure_message: null,
  card_brand: 'visa',
  card_last4: '4242',
  held_at: '2026-11-29T10:00:00.5+00:00',
  settled_at: '2026-11-29T10:05:00+00:00',
  receipt_url: null,
  transferred_at: null,
  created_at: '2026-11-29T09:59:59.123456+00:00',
  updated_at: '2026-11-29T10:05:00+00:00',
};

describe('a payment nested as JSON', () => {
  it('reads back as the row: camelCase keys, times as dates, nulls kept', () => {
    expect(paymentFromJson(nested)).toEqual({
      id: 'pay_1',
      taskId: 'tsk_1',
      method: 'card',
      status: 'captured',
      amountCents: 500,
      feeCents: 50,
      autoCharged: false,
      provider: 'simulated',
      intentId: 'pi_1',
      transferId: null,
      payeeId: 'usr_1',
      failureMessage: null,
      cardBrand: 'visa',
      cardLast4: '4242',
      heldAt: new Date('2026-11-29T10:00:00.500Z'),
      settledAt: new Date('2026-11-29T10:05:00Z'),
      receiptUrl: null,
      transferredAt: null,
      createdAt: new Date('2026-11-29T09:59:59.123Z'),
      updatedAt: new Date('2026-11-29T10:05:00Z'),
    });
    // The second read takes the names worked out by the first.
    expect(paymentFromJson({ ...nested, held_at: null }).heldAt).toBeNull();
  });

  it('refuses a time it cannot read, or a required one that is missing', () => {
    expect(() => paymentFromJson({ ...nested, settled_at: 'soon' })).toThrow(/settledAt/);
    expect(() => paymentFromJson({ ...nested, created_at: null })).toThrow(/createdAt/);
    const { updated_at: _, ...withoutUpdate } = nested;
    expect(() => paymentFromJson(withoutUpdate)).toThrow(/updatedAt/);
  });
});
