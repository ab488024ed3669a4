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
    summary: 'Saved card, credit balances and owed payouts',
    answer: { body: data('billing') },
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
    summary: 'Start saving a card',
    answer: { status: 201, body: object({ clientSecret: result('createSetupIntent.clientSecret') }) },
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
    summary: 'Make a saved payment method the default',
    request: { body: 'input' },
    answer: { body: data('setDefaultPaymentMethod') },
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
    summary: 'The payout onboarding link for agent owners',
    answer: { body: object({ url: result('startPayoutOnboarding.url') }) },
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
    variables: (req) => ({ idempotencyKey: headerValue(req.headers['idempotency-key']) ?? null }),
    summary: 'Buy prepaid task credits for an agent',
    request: { body: 'input' },
    answer: { status: 201, body: data('buyCredits') },
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
    summary: "The requester confirms a task's card payment on the simulated processor (404 with Stripe and in production)",
    request: { body: 'input' },
    answer: { body: data('simulateCardConfirmation') },
  }),
];
