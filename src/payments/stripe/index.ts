// The Stripe adapter: PaymentIntents with manual capture for task holds, separate charges and transfers
// (transfer_group = task id) for paying agent owners, Express connected accounts for onboarding.
// host/port/protocol exist so tests can point the official SDK at a local stand-in; production leaves
// them unset.
//
// Each provider method is a plain function of a StripeContext in this folder's modules; this binds them
// to one client.
import type Stripe from 'stripe';
import { packageLoader } from '../../load-package.js';
import type { PaymentProvider } from '../provider.js';
import { charge } from './charges.js';
import type { StripeContext } from './context.js';
import { createCustomer, createSetupIntent, detachPaymentMethod, setDefaultPaymentMethod } from './customers.js';
import { authorize, capture, holdCard, holdClientSecret, refund, release } from './holds.js';
import { createConnectedAccount, createOnboardingLink, payoutAccountState, transfer } from './payouts.js';
import { parseWebhook } from './webhooks.js';

export type StripeProviderOptions = {
  secretKey: string;
  webhookSecret: string;
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  maxNetworkRetries?: number;
};

// Every call carries an idempotency key, so the SDK's own retries are safe; two
// retries ride out a dropped connection without making a job wait long.
const DEFAULT_NETWORK_RETRIES = 2;

const loadStripe = packageLoader<typeof Stripe>('stripe');

export function createStripeProvider(opts: StripeProviderOptions): PaymentProvider {
  const StripeClient = loadStripe();
  const stripe = new StripeClient(opts.secretKey, {
    host: opts.host,
    port: opts.port,
    protocol: opts.protocol,
    maxNetworkRetries: opts.maxNetworkRetries ?? DEFAULT_NETWORK_RETRIES,
  });
  const ctx: StripeContext = { stripe, webhookSecret: opts.webhookSecret };
  const bound = <A extends unknown[], R>(method: (ctx: StripeContext, ...args: A) => R) => (...args: A): R => method(ctx, ...args);
  return {
    name: 'stripe',
    createCustomer: bound(createCustomer),
    createSetupIntent: bound(createSetupIntent),
    setDefaultPaymentMethod: bound(setDefaultPaymentMethod),
    detachPaymentMethod: bound(detachPaymentMethod),
    authorize: bound(authorize),
    holdCard: bound(holdCard),
    holdClientSecret: bound(holdClientSecret),
    capture: bound(capture),
    release: bound(release),
    refund: bound(refund),
    charge: bound(charge),
    transfer: bound(transfer),
    createConnectedAccount: bound(createConnectedAccount),
    createOnboardingLink: bound(createOnboardingLink),
    payoutAccountState: bound(payoutAccountState),
    parseWebhook: bound(parseWebhook),
  };
}
