// The billing pages' GraphQL operations: the processor's settings, the card on file, credits, payment
// history and spending, payouts and earnings, and a task's hold confirmation.
import { graphql } from '../generated/gql/index.js';

export const PaymentSettingsQuery = graphql(`
  query DashPaymentSettings {
    paymentSettings {
      processor
      publishableKey
      testMode
    }
  }
`);

export const HoldConfirmationQuery = graphql(`
  query DashHoldConfirmation($taskId: ID!) {
    taskHoldConfirmation(taskId: $taskId) {
      clientSecret
      amountCents
    }
  }
`);

export const BillingQuery = graphql(`
  query DashBillingPage {
    billing {
      card {
        brand
        last4
      }
      credits {
        agentId
        balance
        agent {
          id
          name
          slug
          priceCents
        }
      }
      spentThisMonthCents
      payments {
        taskId
        taskTitle
        agentName
        agentSlug
        method
        status
        amountCents
        cardBrand
        cardLast4
        heldAt
        settledAt
        createdAt
        receiptUrl
      }
    }
  }
`);

export const PayoutsQuery = graphql(`
  query DashPayouts {
    billing {
      payouts {
        connected
        onboarding
        owedCents
        transferredCents
        earnings {
          taskId
          taskTitle
          agentName
          amountCents
          feeCents
          netCents
          capturedAt
          transfer
          transferredAt
        }
      }
    }
  }
`);

export const CreateSetupIntentMutation = graphql(`
  mutation DashCreateSetupIntent {
    createSetupIntent {
      clientSecret
    }
  }
`);

export const SetDefaultCardMutation = graphql(`
  mutation DashSetDefaultCard($input: SetDefaultPaymentMethodInput!) {
    setDefaultPaymentMethod(input: $input) {
      card {
        brand
        last4
      }
    }
  }
`);

export const RemoveCardMutation = graphql(`
  mutation DashRemoveCard {
    removePaymentMethod {
      card {
        brand
        last4
      }
    }
  }
`);

export const BuyCreditsMutation = graphql(`
  mutation DashBuyCredits($input: BuyCreditsInput!, $idempotencyKey: String) {
    buyCredits(input: $input, idempotencyKey: $idempotencyKey) {
      agentId
      quantity
      amountCents
      balance
    }
  }
`);

export const StartPayoutOnboardingMutation = graphql(`
  mutation DashStartPayoutOnboarding {
    startPayoutOnboarding {
      url
    }
  }
`);

export const BuyForAgentQuery = graphql(`
  query DashBuyForAgent($slugOrId: String!) {
    agent(slugOrId: $slugOrId) {
      id
      name
      slug
      priceCents
    }
  }
`);
