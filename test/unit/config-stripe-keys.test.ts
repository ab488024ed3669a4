// Stripe's two keys: the secret one places holds, the publishable one lets the dashboard's Stripe.js
// confirm them. Both or neither, and of one mode, or every confirmation would fail at Stripe.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const base = { STRIPE_WEBHOOK_SECRET: 'whsec_x' };

describe('Stripe keys', () => {
  it('takes a publishable key beside the secret key, of the same mode', () => {
    expect(loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_def' }).stripe.publishableKey).toBe('pk_test_def');
    expect(loadConfig({ ...base, STRIPE_SECRET_KEY: 'rk_live_abc', STRIPE_PUBLISHABLE_KEY: 'pk_live_def' }).stripe.publishableKey).toBe('pk_live_def');
    expect(loadConfig({}).stripe.publishableKey).toBeNull();
  });

  it('refuses one key without the other, naming both', () => {
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_abc' })).toThrow(/STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY: set both or neither/);
    expect(() => loadConfig({ STRIPE_PUBLISHABLE_KEY: 'pk_test_def' })).toThrow(ConfigError);
  });

  it('refuses keys of different modes', () => {
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_def' })).toThrow(/STRIPE_PUBLISHABLE_KEY: a test key does not go with a live STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PUBLISHABLE_KEY: 'pk_live_def' })).toThrow(/a live key does not go with a test/);
  });

  it('refuses a publishable key that is not one', () => {
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PUBLISHABLE_KEY: 'sk_test_oops' })).toThrow(/STRIPE_PUBLISHABLE_KEY/);
  });
});
