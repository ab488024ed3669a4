// Paying agent owners: Express connected accounts, their hosted onboarding, and separate transfers
// (transfer_group = the task's id) to them.
import { requireIdempotencyKey, type PayoutAccountState } from '../provider.js';
import { call, type InputOf, type StripeContext } from './context.js';

export async function transfer({ stripe }: StripeContext, { amountCents, currency, destinationAccountId, transferGroup, idempotencyKey }: InputOf<'transfer'>) {
  const transfer = await call('transfer funds', () =>
    stripe.transfers.create(
      { amount: amountCents, currency, destination: destinationAccountId, transfer_group: transferGroup },
      { idempotencyKey: requireIdempotencyKey(idempotencyKey) },
    ),
  );
  return { transferId: transfer.id };
}

export async function createConnectedAccount({ stripe }: StripeContext, { userId, email, idempotencyKey }: InputOf<'createConnectedAccount'>) {
  const account = await call('create connected account', () =>
    stripe.accounts.create(
      // Separate charges and transfers need only the transfers capability.
      { type: 'express', email, metadata: { userId }, capabilities: { transfers: { requested: true } } },
      { idempotencyKey: requireIdempotencyKey(idempotencyKey) },
    ),
  );
  return { accountId: account.id };
}

export async function createOnboardingLink({ stripe }: StripeContext, { accountId, refreshUrl, returnUrl }: InputOf<'createOnboardingLink'>) {
  const link = await call('create onboarding link', () =>
    stripe.accountLinks.create({
      account: accountId,
      type: 'account_onboarding',
      refresh_url: refreshUrl,
      return_url: returnUrl,
    }),
  );
  return { url: link.url };
}

export async function payoutAccountState({ stripe }: StripeContext, accountId: string): Promise<PayoutAccountState> {
  const account = await call('retrieve connected account', () => stripe.accounts.retrieve(accountId));
  if (!account.details_submitted) return 'details_needed';
  // Transfers are what this service sends; payouts are the owner's bank receiving them.
  const transfers = account.capabilities?.transfers;
  return transfers === 'active' && account.payouts_enabled ? 'enabled' : 'pending';
}
