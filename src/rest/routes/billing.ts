// /v1/billing and /v1/credits: saving a card, balances, buying credits, payouts; and the simulated
// processor's confirmation endpoint (answers 404 when Stripe is configured).
import { graphql } from '../../generated/gql/index.js';
import { route } from '../route.js';
import { data, object, result } from '../shape.js';

graphql(`
  fragment BillingFields on Billing {
    card {
      brand
      last4
    }
    credits {
      agentId
      balance
      agent {
        name
        slug
        priceCents
      }
    }
    payouts {
      connected
      owedCents
    }
  }
`);

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : value);

export const billingRoutes = [
  route({
    method: 'GET',
    path: '/v1/billing',
    document: graphql(`
      query RestBilling {
        billing {
          ...BillingFields
        }
      }
    `),
    respond: (data) => ({ body: { data: data.billing } }),
    summary: 'Saved card, credit balances and owed payouts',
    response: { body: data('billing') },
  }),
  route({
    method: 'POST',
    path: '/v1/billing/setup-intent',
    document: graphql(`
      mutation RestCreateSetupIntent {
        createSetupIntent {
          clientSecret
        }
      }
    `),
    respond: (data) => ({ status: 201, body: { clientSecret: data.createSetupIntent.clientSecret } }),
    summary: 'Start saving a card',
    response: { status: 201, body: object({ clientSecret: result('createSetupIntent.clientSecret') }) },
  }),
  route({
    method: 'POST',
    path: '/v1/billing/payment-method',
    document: graphql(`
      mutation RestSetDefaultPaymentMethod($input: SetDefaultPaymentMethodInput!) {
        setDefaultPaymentMethod(input: $input) {
          ...BillingFields
        }
      }
    `),
    variables: (req) => ({ input: (req.body ?? {}) as never }),
    respond: (data) => ({ body: { data: data.setDefaultPaymentMethod } }),
    summary: 'Make a saved payment method the default',
    request: { body: 'input' },
    response: { body: data('setDefaultPaymentMethod') },
  }),
  route({
    method: 'POST',
    path: '/v1/billing/connect',
    document: graphql(`
      mutation RestStartPayoutOnboarding {
        startPayoutOnboarding {
          url
        }
      }
    `),
    respond: (data) => ({ body: { url: data.startPayoutOnboarding.url } }),
    summary: 'The payout onboarding link for agent owners',
    response: { body: object({ url: result('startPayoutOnboarding.url') }) },
  }),
  route({
    method: 'POST',
    path: '/v1/credits',
    idempotent: true,
    document: graphql(`
      mutation RestBuyCredits($input: BuyCreditsInput!, $idempotencyKey: String) {
        buyCredits(input: $input, idempotencyKey: $idempotencyKey) {
          agentId
          quantity
          amountCents
          balance
        }
      }
    `),
    // The header also keys the processor charge, so a purchase whose first attempt died mid-way is still charged once.
    variables: (req) => ({ input: (req.body ?? {}) as never, idempotencyKey: headerValue(req.headers['idempotency-key']) ?? null }),
    respond: (data) => ({ status: 201, body: { data: data.buyCredits } }),
    summary: 'Buy prepaid task credits for an agent',
    request: { body: 'input' },
    response: { status: 201, body: data('buyCredits') },
  }),
  route({
    method: 'POST',
    path: '/v1/billing/simulate/confirm',
    document: graphql(`
      mutation RestSimulateCardConfirmation($input: SimulateCardConfirmationInput!) {
        simulateCardConfirmation(input: $input) {
          status
        }
      }
    `),
    variables: (req) => ({ input: (req.body ?? {}) as never }),
    respond: (data) => ({ body: { data: data.simulateCardConfirmation } }),
    summary: "The requester confirms a task's card payment on the simulated processor (404 with Stripe and in production)",
    request: { body: 'input' },
    response: { body: data('simulateCardConfirmation') },
  }),
];
