// A local stand-in for the part of Stripe's v1 API the payment adapter uses, so the
// official SDK can be exercised end to end without a network (Stripe is not
// reachable from these machines). It keeps Stripe's shapes and rules where the
// adapter depends on them: form-encoded bodies, error objects, PaymentIntent state
// transitions, test payment methods that decline, and idempotent replay.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type StandinCall = {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  // Flat form fields as sent, nested keys kept verbatim: `metadata[taskId]`.
  body: Record<string, string>;
  replayed: boolean;
};

export type IntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'requires_capture'
  | 'processing'
  | 'succeeded'
  | 'canceled';

export type StandinIntent = {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  currency: string;
  customer: string | null;
  description: string | null;
  payment_method: string | null;
  payment_method_types: string[];
  capture_method: string;
  confirmation_method: 'automatic';
  status: IntentStatus;
  client_secret: string;
  transfer_group: string | null;
  metadata: Record<string, string>;
  latest_charge: string | null;
  last_payment_error: Record<string, unknown> | null;
  canceled_at: number | null;
  cancellation_reason: string | null;
  next_action: { type: 'use_stripe_sdk'; use_stripe_sdk: { type: 'three_d_secure_redirect' } } | null;
  created: number;
  livemode: false;
};

type Json = Record<string, unknown>;
export type DeclineReason = 'card_declined' | 'insufficient_funds' | 'authentication_required';
// How the next POSTs fail: `server_error`/`rate_limit` answer before doing anything
// (nothing stored, like Stripe); `drop_after` does the work, stores the idempotent
// result, then cuts the connection, as when a response is lost on the way back.
export type Fault = 'server_error' | 'rate_limit' | 'drop_after';

export type StripeStandin = {
  port: number;
  url: string;
  calls: StandinCall[];
  intents: Map<string, StandinIntent>;
  customers: Map<string, Json>;
  paymentMethods: Map<string, Json>;
  accounts: Map<string, Json>;
  transfers: Map<string, Json>;
  refunds: Map<string, Json>;
  setDecline(paymentMethodId: string, reason?: DeclineReason): void;
  failNext(fault: Fault, count?: number): void;
  // Where the stand-in sends its events (Stripe's webhook endpoint of the account), signed with `secret`,
  // as Stripe does when a hold is placed or a card saved: the service's webhook path then moves the hold.
  sendEventsTo(url: string, secret: string): void;
  // Onboarding links handed out, by URL: the hosted onboarding's stand-in finds where to send the owner back.
  accountLinks: Map<string, { account: string; returnUrl: string; refreshUrl: string }>;
  // Events sent, and how the endpoint answered.
  events: Array<{ type: string; status: number }>;

  close(): Promise<void>;
};

type Reply = { status: number; json: Json; store: boolean };

// Stripe's test payment methods that fail, by id.
const DEFAULT_DECLINES: Array<[string, DeclineReason]> = [
  ['pm_card_declined', 'card_declined'],
  ['pm_card_chargeDeclined', 'card_declined'],
  ['pm_card_visa_chargeDeclined', 'card_declined'],
  ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
  ['pm_card_authenticationRequired', 'authentication_required'],
];

// Stripe's test card numbers as typed into its Payment Element, and how each behaves.
const TEST_CARDS: Record<string, { brand: string; decline?: DeclineReason }> = {
  '4242424242424242': { brand: 'visa' },
  '5555555555554444': { brand: 'mastercard' },
  '4000000000000002': { brand: 'visa', decline: 'card_declined' },
  '4000000000009995': { brand: 'visa', decline: 'insufficient_funds' },
  // Needs 3-D Secure whenever the cardholder is present, and cannot be charged without them.
  '4000002760003184': { brand: 'visa', decline: 'authentication_required' },
};

const CANCELABLE: IntentStatus[] = [
  'requires_payment_method',
  'requires_capture',
  'requires_confirmation',
  'requires_action',
  'processing',
];

export async function startStripeStandin(): Promise<StripeStandin> {
  const calls: StandinCall[] = [];
  const intents = new Map<string, StandinIntent>();
  const customers = new Map<string, Json>();
  const paymentMethods = new Map<string, Json>();
  const accounts = new Map<string, Json>();
  const transfers = new Map<string, Json>();
  // Refunds by the PaymentIntent they refund.
  const refunds = new Map<string, Json>();
  const declines = new Map<string, DeclineReason>(DEFAULT_DECLINES);
  const idempotent = new Map<string, { method: string; path: string; fingerprint: string; reply: Reply }>();
  const faults: Fault[] = [];
  const setupIntents = new Map<string, Json>();
  const accountLinks = new Map<string, { account: string; returnUrl: string; refreshUrl: string }>();
  // Intents whose 3-D Secure step was passed.
  const authenticated = new Set<string>();
  // Charges by id, with the intent they belong to (for the receipt of an expanded latest_charge).
  const charges = new Map<string, string>();
  const events: Array<{ type: string; status: number }> = [];
  let eventTarget: { url: string; secret: string } | null = null;
  const pendingEvents: Array<Promise<void>> = [];

  // Sent after the reply, as Stripe does, signed the way Stripe signs (t=…,v1=HMAC of "t.body").
  function emit(type: string, object: object): void {
    if (!eventTarget) return;
    const { url, secret } = eventTarget;
    const payload = JSON.stringify({ id: newId('evt'), object: 'event', type, data: { object: snapshot(object) }, livemode: false, created: now(), api_version: '2024-06-20' });
    const t = now();
    const signature = createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex');
    const sent = new Promise<void>((resolve) => setTimeout(resolve, 0))
      .then(() => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${signature}` }, body: payload }))
      .then(
        (res) => void events.push({ type, status: res.status }),
        () => void events.push({ type, status: 0 }),
      );
    pendingEvents.push(sent);
  }

  const route = (method: string, path: string, body: Record<string, string>): Reply => {
    const parts = path.split('/').filter(Boolean); // ['v1', resource, id?, action?]
    if (parts[0] !== 'v1') return notFound(method, path);
    const [, resource, id, action] = parts;
    if (method === 'POST' && resource === 'customers' && id === undefined) return createCustomer(body);
    if (method === 'POST' && resource === 'customers' && id !== undefined && action === undefined) return updateCustomer(id, body);
    if (method === 'POST' && resource === 'setup_intents' && id === undefined) return createSetupIntent(body);
    if (method === 'POST' && resource === 'setup_intents' && id !== undefined && action === 'confirm') return confirmSetupIntent(id, body);
    if (method === 'POST' && resource === 'payment_methods' && id !== undefined && action === 'detach') return detach(id);
    if (method === 'GET' && resource === 'accounts' && id !== undefined && action === undefined) return getAccount(id);
    if (method === 'POST' && resource === 'payment_intents' && id !== undefined && action === 'authenticate') return withIntent(id, (pi) => authenticate(pi, body));
    if (method === 'GET' && resource === 'payment_methods' && id !== undefined && action === undefined) return getPaymentMethod(id);
    if (method === 'POST' && resource === 'payment_methods' && id !== undefined && action === 'attach') return attach(id, body);
    if (method === 'POST' && resource === 'payment_intents' && id === undefined) return createIntent(body);
    if (method === 'GET' && resource === 'payment_intents' && id !== undefined && action === undefined) return withIntent(id, (pi) => ok(pi));
    if (method === 'POST' && resource === 'payment_intents' && id !== undefined && action === 'confirm') return withIntent(id, (pi) => confirmExisting(pi, body));
    if (method === 'POST' && resource === 'payment_intents' && id !== undefined && action === 'capture') return withIntent(id, (pi) => capture(pi, body));
    if (method === 'POST' && resource === 'payment_intents' && id !== undefined && action === 'cancel') return withIntent(id, (pi) => cancel(pi, body));
    if (method === 'POST' && resource === 'refunds' && id === undefined) return createRefund(body);
    if (method === 'POST' && resource === 'transfers' && id === undefined) return createTransfer(body);
    if (method === 'POST' && resource === 'accounts' && id === undefined) return createAccount(body);
    if (method === 'POST' && resource === 'account_links' && id === undefined) return createAccountLink(body);
    return notFound(method, path);
  };

  // Stripe's `expand[]=payment_method` on a PaymentIntent: the method's object in place of its id.
  function expand(reply: Reply, body: Record<string, string>): Reply {
    const json = reply.json;
    const charge = Object.entries(body).some(([key, value]) => /^expand\[\d*\]$/.test(key) && value === 'latest_charge');
    if (charge && reply.status === 200 && json.object === 'payment_intent' && typeof json.latest_charge === 'string') {
      const id = json.latest_charge;
      const paid = json.status === 'succeeded';
      reply = { ...reply, json: { ...json, latest_charge: { id, object: 'charge', paid, captured: paid, receipt_url: paid ? `https://pay.stripe.com/receipts/payment/${id}` : null } } };
    }
    const wanted = Object.entries(body).some(([key, value]) => /^expand\[\d*\]$/.test(key) && value === 'payment_method');
    if (!wanted || reply.status !== 200 || json.object !== 'payment_intent' || typeof json.payment_method !== 'string') return reply;
    return { ...reply, json: { ...reply.json, payment_method: snapshot(paymentMethod(json.payment_method) ?? {}) } };
  }

  // ---- customers, setup intents, payment methods ----

  function createCustomer(body: Record<string, string>): Reply {
    const customer: Json = {
      id: newId('cus'),
      object: 'customer',
      email: body.email ?? null,
      metadata: nested(body, 'metadata'),
      invoice_settings: { default_payment_method: null, custom_fields: null, footer: null, rendering_options: null },
      created: now(),
      livemode: false,
    };
    customers.set(customer.id as string, customer);
    return ok(customer);
  }

  function updateCustomer(id: string, body: Record<string, string>): Reply {
    const customer = customers.get(id);
    if (!customer) return missing('customer', id, 'id', 404);
    const defaultMethod = body['invoice_settings[default_payment_method]'];
    if (defaultMethod !== undefined) {
      if (paymentMethods.get(defaultMethod)?.customer !== id) {
        return invalid(
          `The customer does not have a payment method with the ID ${defaultMethod}. The payment method must be attached to the customer.`,
          { code: 'resource_missing', param: 'invoice_settings[default_payment_method]' },
        );
      }
      (customer.invoice_settings as Json).default_payment_method = defaultMethod;
    }
    if (body.email !== undefined) customer.email = body.email;
    customer.metadata = { ...(customer.metadata as Json), ...nested(body, 'metadata') };
    return ok(customer);
  }

  function createSetupIntent(body: Record<string, string>): Reply {
    if (body.customer !== undefined && !customers.has(body.customer)) return missing('customer', body.customer, 'customer');
    const id = newId('seti');
    const intent: Json = {
      id,
      object: 'setup_intent',
      client_secret: `${id}_secret_${token()}`,
      customer: body.customer ?? null,
      status: 'requires_payment_method',
      usage: body.usage ?? 'off_session',
      payment_method: null,
      payment_method_types: ['card'],
      automatic_payment_methods: automaticMethods(body),
      created: now(),
      livemode: false,
    };
    setupIntents.set(id, intent);
    return ok(intent);
  }

  // Stripe.js's confirmSetup: the card becomes a payment method attached to the intent's customer.
  function confirmSetupIntent(id: string, body: Record<string, string>): Reply {
    const intent = setupIntents.get(id);
    if (!intent) return missing('setup_intent', id, 'intent', 404);
    if (intent.status !== 'requires_payment_method') return invalid(`This SetupIntent has a status of ${String(intent.status)}.`, { code: 'setup_intent_unexpected_state' });
    const created = methodFromCard(body);
    if ('error' in created) return created.error;
    const pm = created.pm;
    const reason = declines.get(pm.id as string);
    if (reason === 'card_declined' || reason === 'insufficient_funds') {
      const error = declineError(reason, newId('ch'));
      intent.last_setup_error = error;
      return { status: 402, json: { error: { ...error, setup_intent: snapshot(intent) } }, store: true };
    }
    pm.customer = intent.customer;
    intent.payment_method = pm.id;
    intent.status = 'succeeded';
    emit('setup_intent.succeeded', intent);
    return ok(intent);
  }

  // A card typed into the (stand-in) Payment Element: Stripe's test numbers behave as Stripe's do.
  function methodFromCard(body: Record<string, string>): { pm: Json } | { error: Reply } {
    if (body.payment_method !== undefined) {
      const pm = paymentMethod(body.payment_method);
      return pm ? { pm } : { error: missing('PaymentMethod', body.payment_method, 'payment_method') };
    }
    const number = (body['payment_method_data[card][number]'] ?? '').replace(/\s/g, '');
    const card = TEST_CARDS[number];
    if (!card) return { error: { status: 402, json: errorBody('card_error', 'Your card number is incorrect.', { code: 'incorrect_number', param: 'number' }), store: false } };
    const id = newId('pm');
    const pm: Json = {
      id,
      object: 'payment_method',
      type: 'card',
      card: { brand: card.brand, last4: number.slice(-4), exp_month: 12, exp_year: 2034, funding: 'credit', country: 'US' },
      customer: null,
      billing_details: { address: null, email: null, name: null, phone: null },
      created: now(),
      livemode: false,
    };
    paymentMethods.set(id, pm);
    if (card.decline) declines.set(id, card.decline);
    return { pm };
  }

  function detach(id: string): Reply {
    const pm = paymentMethods.get(id);
    if (!pm) return missing('PaymentMethod', id, 'payment_method', 404);
    if (pm.customer === null) return invalid('The payment method you provided is not attached to a customer so detachment is impossible.', { code: 'payment_method_unexpected_state' });
    pm.customer = null;
    return ok(pm);
  }

  function getAccount(id: string): Reply {
    const account = accounts.get(id);
    return account ? ok(account) : missing('account', id, 'account', 404);
  }

  // Any `pm_…` id exists, as if the requester had created it with Stripe.js; it is
  // materialised on first use. `pm_card_…` ids are Stripe's test shortcuts: they
  // never belong to anyone, and attaching one creates a new method with a new id.
  function paymentMethod(id: string): Json | null {
    if (!id.startsWith('pm_')) return null;
    let pm = paymentMethods.get(id);
    if (!pm) {
      const [brand, last4] = cardFor(id, declines.get(id));
      pm = {
        id,
        object: 'payment_method',
        type: 'card',
        card: { brand, last4, exp_month: 12, exp_year: 2034, funding: 'credit', country: 'US' },
        customer: null,
        billing_details: { address: null, email: null, name: null, phone: null },
        created: now(),
        livemode: false,
      };
      paymentMethods.set(id, pm);
    }
    return pm;
  }

  function getPaymentMethod(id: string): Reply {
    const pm = paymentMethod(id);
    return pm ? ok(pm) : missing('PaymentMethod', id, 'payment_method', 404);
  }

  function attach(id: string, body: Record<string, string>): Reply {
    const pm = paymentMethod(id);
    if (!pm) return missing('PaymentMethod', id, 'payment_method', 404);
    if (body.customer === undefined) return invalid('Missing required param: customer.', { code: 'parameter_missing', param: 'customer' });
    if (!customers.has(body.customer)) return missing('customer', body.customer, 'customer');
    if (pm.customer !== null && pm.customer !== body.customer) {
      return invalid('The payment method you provided has already been attached to a customer.', {
        code: 'payment_method_unexpected_state',
      });
    }
    if (id.startsWith('pm_card_')) {
      const copy = { ...structuredClone(pm), id: newId('pm'), customer: body.customer, created: now() };
      paymentMethods.set(copy.id, copy);
      const reason = declines.get(id);
      if (reason !== undefined) declines.set(copy.id, reason);
      return ok(copy);
    }
    pm.customer = body.customer;
    return ok(pm);
  }

  // ---- payment intents ----

  function createIntent(body: Record<string, string>): Reply {
    const amount = Number(body.amount);
    if (body.amount === undefined) return invalid('Missing required param: amount.', { code: 'parameter_missing', param: 'amount' });
    if (!Number.isInteger(amount) || amount < 0) {
      return invalid('Invalid integer: ' + body.amount, { code: 'parameter_invalid_integer', param: 'amount' });
    }
    if (amount < 50) {
      return invalid('Amount must be at least $0.50 usd', { code: 'amount_too_small', param: 'amount' });
    }
    if (!body.currency) return invalid('Missing required param: currency.', { code: 'parameter_missing', param: 'currency' });
    if (body.customer !== undefined && !customers.has(body.customer)) return missing('customer', body.customer, 'customer');
    if (body.payment_method !== undefined && !paymentMethod(body.payment_method)) {
      return missing('PaymentMethod', body.payment_method, 'payment_method');
    }
    const confirm = body.confirm === 'true';
    if (body.off_session !== undefined && !confirm) {
      return invalid('You can only pass in `off_session` when `confirm` is set to true.', { param: 'off_session' });
    }
    if (confirm && body.payment_method === undefined) {
      return invalid(
        "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method or ConfirmationToken.",
        { code: 'payment_intent_unexpected_state' },
      );
    }
    const id = newId('pi');
    const intent: StandinIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      currency: body.currency.toLowerCase(),
      customer: body.customer ?? null,
      description: body.description ?? null,
      payment_method: body.payment_method ?? null,
      payment_method_types: ['card'],
      capture_method: body.capture_method ?? 'automatic_async',
      confirmation_method: 'automatic',
      status: body.payment_method === undefined ? 'requires_payment_method' : 'requires_confirmation',
      client_secret: `${id}_secret_${token()}`,
      transfer_group: body.transfer_group ?? null,
      metadata: nested(body, 'metadata'),
      latest_charge: null,
      last_payment_error: null,
      canceled_at: null,
      cancellation_reason: null,
      next_action: null,
      created: now(),
      livemode: false,
    };
    intents.set(id, intent);
    return confirm ? runConfirmation(intent, body.off_session === 'true') : ok(intent);
  }

  function confirmExisting(pi: StandinIntent, body: Record<string, string>): Reply {
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(pi.status)) {
      return unexpectedState(pi, 'confirmed', ['requires_payment_method', 'requires_confirmation', 'requires_action']);
    }
    let method = body.payment_method ?? pi.payment_method;
    if (body['payment_method_data[type]'] !== undefined) {
      const created = methodFromCard(body);
      if ('error' in created) return created.error;
      method = created.pm.id as string;
    }
    if (method === null || !paymentMethod(method)) {
      return invalid("You cannot confirm this PaymentIntent because it's missing a payment method.", {
        code: 'payment_intent_unexpected_state',
      });
    }
    pi.payment_method = method;
    return runConfirmation(pi, body.off_session === 'true');
  }

  // The cardholder's answer in the 3-D Secure step (what Stripe's challenge frame reports to Stripe).
  function authenticate(pi: StandinIntent, body: Record<string, string>): Reply {
    if (pi.status !== 'requires_action') return unexpectedState(pi, 'authenticated', ['requires_action']);
    pi.next_action = null;
    if (body.outcome !== 'complete') {
      pi.status = 'requires_payment_method';
      pi.last_payment_error = {
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        message: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      };
      return ok(pi);
    }
    authenticated.add(pi.id);
    return runConfirmation(pi, false);
  }

  // The card network's answer: a decline leaves the intent waiting for another
  // method (and the error carries the intent), success holds or takes the money.
  function runConfirmation(pi: StandinIntent, offSession = true): Reply {
    const chargeId = newId('ch');
    pi.latest_charge = chargeId;
    const reason = pi.payment_method === null ? undefined : declines.get(pi.payment_method);
    // With the cardholder present, a card that needs authentication asks for it (3-D Secure) instead of
    // declining; Stripe.js runs the step and the intent goes on once it is passed.
    if (reason === 'authentication_required' && !offSession && !authenticated.has(pi.id)) {
      pi.status = 'requires_action';
      pi.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
      return ok(pi);
    }
    if (reason !== undefined && !(reason === 'authentication_required' && authenticated.has(pi.id))) {
      const error = declineError(reason, chargeId);
      pi.status = 'requires_payment_method';
      pi.last_payment_error = { ...error, payment_method: pi.payment_method === null ? null : paymentMethod(pi.payment_method) };
      return { status: 402, json: { error: { ...error, payment_intent: snapshot(pi) } }, store: true };
    }
    pi.last_payment_error = null;
    charges.set(chargeId, pi.id);
    if (pi.capture_method === 'manual') {
      pi.status = 'requires_capture';
      pi.amount_capturable = pi.amount;
      emit('payment_intent.amount_capturable_updated', pi);
    } else {
      pi.status = 'succeeded';
      pi.amount_received = pi.amount;
    }
    return ok(pi);
  }

  function capture(pi: StandinIntent, body: Record<string, string>): Reply {
    if (pi.status !== 'requires_capture') return unexpectedState(pi, 'captured', ['requires_capture']);
    const amount = body.amount_to_capture === undefined ? pi.amount_capturable : Number(body.amount_to_capture);
    if (!Number.isInteger(amount) || amount <= 0 || amount > pi.amount_capturable) {
      return invalid('The amount to capture is invalid.', { code: 'parameter_invalid_integer', param: 'amount_to_capture' });
    }
    pi.status = 'succeeded';
    pi.amount_received = amount;
    pi.amount_capturable = 0;
    return ok(pi);
  }

  function cancel(pi: StandinIntent, body: Record<string, string>): Reply {
    if (!CANCELABLE.includes(pi.status)) return unexpectedState(pi, 'canceled', CANCELABLE);
    pi.status = 'canceled';
    pi.amount_capturable = 0;
    pi.canceled_at = now();
    pi.cancellation_reason = body.cancellation_reason ?? null;
    return ok(pi);
  }

  // The whole amount of a succeeded intent, once; Stripe refuses a second full refund.
  function createRefund(body: Record<string, string>): Reply {
    if (!body.payment_intent) return invalid('Missing required param: payment_intent.', { code: 'parameter_missing', param: 'payment_intent' });
    const pi = intents.get(body.payment_intent);
    if (!pi) return missing('payment_intent', body.payment_intent, 'payment_intent');
    if (pi.status !== 'succeeded') return invalid('This PaymentIntent has no successful charge to refund.', { code: 'charge_not_refundable', param: 'payment_intent' });
    if (refunds.has(pi.id)) return invalid(`Charge ${pi.latest_charge ?? pi.id} has already been refunded.`, { code: 'charge_already_refunded' });
    const refund: Json = { id: newId('re'), object: 'refund', amount: pi.amount_received, currency: pi.currency, payment_intent: pi.id, status: 'succeeded', created: now() };
    refunds.set(pi.id, refund);
    return ok(refund);
  }

  function withIntent(id: string, run: (pi: StandinIntent) => Reply): Reply {
    const pi = intents.get(id);
    return pi ? run(pi) : missing('payment_intent', id, 'intent', 404);
  }

  // ---- Connect ----

  function createTransfer(body: Record<string, string>): Reply {
    const amount = Number(body.amount);
    if (body.amount === undefined || !Number.isInteger(amount) || amount <= 0) {
      return invalid('Invalid positive integer', { code: 'parameter_invalid_integer', param: 'amount' });
    }
    if (!body.currency) return invalid('Missing required param: currency.', { code: 'parameter_missing', param: 'currency' });
    if (!body.destination) return invalid('Missing required param: destination.', { code: 'parameter_missing', param: 'destination' });
    if (!accounts.has(body.destination)) return missing('destination', body.destination, 'destination');
    const transfer: Json = {
      id: newId('tr'),
      object: 'transfer',
      amount,
      amount_reversed: 0,
      currency: body.currency.toLowerCase(),
      destination: body.destination,
      destination_payment: newId('py'),
      source_transaction: body.source_transaction ?? null,
      transfer_group: body.transfer_group ?? null,
      metadata: nested(body, 'metadata'),
      reversed: false,
      created: now(),
      livemode: false,
    };
    transfers.set(transfer.id as string, transfer);
    return ok(transfer);
  }

  function createAccount(body: Record<string, string>): Reply {
    const account: Json = {
      id: newId('acct'),
      object: 'account',
      type: body.type ?? 'none',
      email: body.email ?? null,
      metadata: nested(body, 'metadata'),
      capabilities: Object.fromEntries(
        Object.keys(nested(body, 'capabilities', true)).map((name) => [name, 'inactive']),
      ),
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      created: now(),
    };
    accounts.set(account.id as string, account);
    return ok(account);
  }

  function createAccountLink(body: Record<string, string>): Reply {
    return createAccountLinkFor(body);
  }

  function createAccountLinkFor(body: Record<string, string>): Reply {
    if (!body.account || !accounts.has(body.account)) return missing('account', body.account ?? '', 'account');
    if (body.type !== 'account_onboarding' && body.type !== 'account_update') {
      return invalid('Invalid type: must be one of account_onboarding or account_update', { param: 'type' });
    }
    for (const param of ['refresh_url', 'return_url']) {
      if (!body[param]) return invalid(`Missing required param: ${param}.`, { code: 'parameter_missing', param });
    }
    const created = now();
    const url = `https://connect.stripe.com/setup/e/${body.account}/${token()}`;
    accountLinks.set(url, { account: body.account, returnUrl: body.return_url!, refreshUrl: body.refresh_url! });
    return ok({
      object: 'account_link',
      url,
      created,
      expires_at: created + 300,
    });
  }

  function publishableRefusal(method: string, path: string, body: Record<string, string>): Reply | null {
    const [, resource, id, action] = path.split('/').filter(Boolean);
    const allowed = method === 'POST' && id !== undefined && (resource === 'payment_intents' ? action === 'confirm' || action === 'authenticate' : resource === 'setup_intents' && action === 'confirm');
    if (!allowed) return { status: 401, json: errorBody('invalid_request_error', 'This API call cannot be made with a publishable API key.'), store: false };
    const intent: { client_secret?: unknown } | undefined = resource === 'payment_intents' ? intents.get(id!) : setupIntents.get(id!);
    if (!intent || intent.client_secret !== body.client_secret) return missing(resource === 'payment_intents' ? 'payment_intent' : 'setup_intent', id!, 'intent', 404);
    return null;
  }

  // ---- HTTP ----

  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://standin');
    const text = await readBody(req);
    const body = Object.fromEntries(new URLSearchParams(method === 'GET' ? url.search : text));
    const keyHeader = req.headers['idempotency-key'];
    const idempotencyKey = typeof keyHeader === 'string' ? keyHeader : undefined;
    const call: StandinCall = { method, path: url.pathname, idempotencyKey, body, replayed: false };
    calls.push(call);

    // Stripe.js's own calls carry the publishable key and the intent's client secret in the body: they
    // may confirm that one intent, nothing else.
    if (/^pk_(test|live)_\w+$/.test(body.key ?? '') && req.headers.authorization === undefined) {
      const refusal = publishableRefusal(method, url.pathname, body);
      if (refusal) return send(res, refusal);
      return send(res, expand(route(method, url.pathname, body), body));
    }
    if (!/^Bearer \S+$/.test(req.headers.authorization ?? '')) {
      return send(res, { status: 401, json: errorBody('invalid_request_error', 'You did not provide an API key.'), store: false });
    }

    const fault = method === 'POST' ? faults.shift() : undefined;
    if (fault === 'server_error') {
      return send(res, { status: 500, json: errorBody('api_error', 'An unknown error occurred'), store: false });
    }
    if (fault === 'rate_limit') {
      const json = errorBody('invalid_request_error', 'Too many requests made to the API too quickly', { code: 'rate_limit' });
      return send(res, { status: 429, json, store: false });
    }

    // Stripe ignores keys on GET; on POST the first result is kept and replayed,
    // and reusing a key for a different request is refused.
    const fingerprint = JSON.stringify(Object.entries(body).sort(([a], [b]) => a.localeCompare(b)));
    if (method === 'POST' && idempotencyKey !== undefined) {
      const stored = idempotent.get(idempotencyKey);
      if (stored) {
        if (stored.method !== method || stored.path !== url.pathname || stored.fingerprint !== fingerprint) {
          const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
          return send(res, { status: 400, json: errorBody('idempotency_error', message), store: false });
        }
        call.replayed = true;
        return send(res, stored.reply, { 'Idempotent-Replayed': 'true' });
      }
    }

    const reply = expand(route(method, url.pathname, body), body);
    if (method === 'POST' && idempotencyKey !== undefined && reply.store) {
      idempotent.set(idempotencyKey, { method, path: url.pathname, fingerprint, reply });
    }
    if (fault === 'drop_after') {
      (res.socket as Socket | null)?.destroy();
      return;
    }
    send(res, reply, idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    calls,
    intents,
    customers,
    paymentMethods,
    accounts,
    transfers,
    refunds,
    setDecline(paymentMethodId, reason = 'card_declined') {
      declines.set(paymentMethodId, reason);
    },
    failNext(fault, count = 1) {
      for (let i = 0; i < count; i += 1) faults.push(fault);
    },
    sendEventsTo(url, secret) {
      eventTarget = { url, secret };
    },
    events,
    accountLinks,
    close: () =>
      new Promise<void>((resolve, reject) => {
        void Promise.allSettled(pendingEvents);
        server.close((err) => (err ? reject(err) : resolve()));
        // The SDK keeps connections alive; without this close() would wait for them.
        server.closeAllConnections();
      }),
  };
}

// ---- helpers ----

function ok(json: object): Reply {
  return { status: 200, json: snapshot(json), store: true };
}

// Replies are copies: a stored idempotent reply must not change when the object does.
function snapshot<T extends object>(value: T): Json {
  return structuredClone(value) as Json;
}

function errorBody(type: string, message: string, extra: Json = {}): Json {
  return { error: { type, message, ...extra } };
}

// Parameter errors happen before Stripe starts the work, so no idempotent result is kept.
function invalid(message: string, extra: { code?: string; param?: string } = {}): Reply {
  return { status: 400, json: errorBody('invalid_request_error', message, extra), store: false };
}

// 404 when the id is in the path, 400 when it is a body parameter, as Stripe answers.
function missing(resource: string, id: string, param: string, status: 400 | 404 = 400): Reply {
  return { ...invalid(`No such ${resource}: '${id}'`, { code: 'resource_missing', param }), status };
}

function notFound(method: string, path: string): Reply {
  return { status: 404, json: errorBody('invalid_request_error', `Unrecognized request URL (${method}: ${path}).`), store: false };
}

// The state check runs inside the operation, so Stripe keeps this answer for the key.
function unexpectedState(pi: StandinIntent, verb: string, allowed: IntentStatus[]): Reply {
  const message = `This PaymentIntent could not be ${verb} because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be ${verb}: ${allowed.join(', ')}.`;
  return {
    status: 400,
    json: errorBody('invalid_request_error', message, {
      code: 'payment_intent_unexpected_state',
      doc_url: 'https://stripe.com/docs/error-codes/payment-intent-unexpected-state',
      payment_intent: snapshot(pi),
    }),
    store: true,
  };
}

function declineError(reason: DeclineReason, chargeId: string): Json {
  const base = { type: 'card_error', charge: chargeId, doc_url: 'https://stripe.com/docs/error-codes/card-declined' };
  switch (reason) {
    case 'insufficient_funds':
      return { ...base, code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' };
    case 'authentication_required':
      return {
        ...base,
        code: 'authentication_required',
        decline_code: 'authentication_required',
        message: 'Your card was declined. This transaction requires authentication.',
        doc_url: 'https://stripe.com/docs/error-codes/authentication-required',
      };
    default:
      return { ...base, code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
  }
}

function cardFor(id: string, decline: DeclineReason | undefined): [string, string] {
  if (decline === 'authentication_required') return ['visa', '3184'];
  if (decline !== undefined) return ['visa', '0002'];
  if (id.includes('mastercard')) return ['mastercard', '4444'];
  if (id.includes('amex')) return ['amex', '8431'];
  return ['visa', '4242'];
}

function automaticMethods(body: Record<string, string>): Json | null {
  if (body['automatic_payment_methods[enabled]'] === undefined) return null;
  return {
    enabled: body['automatic_payment_methods[enabled]'] === 'true',
    allow_redirects: body['automatic_payment_methods[allow_redirects]'] ?? 'always',
  };
}

// `metadata[taskId]=x` → `{ taskId: 'x' }`. With `deep`, one more level is kept as
// keys only (`capabilities[transfers][requested]` → `{ transfers: … }`).
function nested(body: Record<string, string>, prefix: string, deep = false): Record<string, string> {
  const out: Record<string, string> = {};
  const pattern = deep ? new RegExp(`^${prefix}\\[([^\\]]+)\\]`) : new RegExp(`^${prefix}\\[([^\\]]+)\\]$`);
  for (const [key, value] of Object.entries(body)) {
    const match = pattern.exec(key);
    if (match?.[1] !== undefined) out[match[1]] = value;
  }
  return out;
}

function send(res: ServerResponse, reply: Reply, headers: Record<string, string> = {}): void {
  res.writeHead(reply.status, {
    'Content-Type': 'application/json',
    'Request-Id': `req_${token()}`,
    ...headers,
  });
  res.end(JSON.stringify(reply.json));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function newId(prefix: string): string {
  return `${prefix}_${token()}`;
}

function token(): string {
  return randomBytes(12).toString('hex');
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}
