import { describe, expect, it } from 'vitest';
import { platformFeeCents } from '../../../src/payments/fees.js';
import { creditPurchaseKey, taskPaymentKey } from '../../../src/payments/keys.js';

describe('platform fee', () => {
  it('is the basis points of the price, rounded down in the owner’s favour', () => {
    expect(platformFeeCents(2000, 1000)).toBe(200);
    expect(platformFeeCents(999, 1000)).toBe(99);
    expect(platformFeeCents(1, 1000)).toBe(0);
    expect(platformFeeCents(2000, 0)).toBe(0);
    expect(platformFeeCents(2000, 10_000)).toBe(2000);
  });
});

describe('idempotency keys', () => {
  it('name the task and the step, the same on every retry', () => {
    expect(taskPaymentKey('tsk_1', 'authorize')).toBe('task:tsk_1:authorize');
    expect(taskPaymentKey('tsk_1', 'capture')).not.toBe(taskPaymentKey('tsk_1', 'release'));
  });

  it('keep a client’s Idempotency-Key out of the processor key, and within its length limit', () => {
    const key = creditPurchaseKey('usr_1', 'x'.repeat(255));
    expect(key).toBe(creditPurchaseKey('usr_1', 'x'.repeat(255)));
    expect(key).not.toContain('xxx');
    expect(key.length).toBeLessThan(255);
    expect(creditPurchaseKey('usr_2', 'x'.repeat(255))).not.toBe(key);
  });
});
