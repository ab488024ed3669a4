// The processor-side records of a user: the customer (who pays) and the connected account (who is paid).
// Created on first need, once: a racing second request sends the same idempotency key, gets the same
// record back, and the conditional write keeps the first id.
import type { SqlDb } from '../db/kysely.js';
import { recordConnectAccountId, recordCustomerId, userById } from '../stores/accounts-store.js';
import type { User } from '../generated/prisma/client.js';
import { notFound } from '../errors.js';
import { connectedAccountKey, customerKey } from './keys.js';
import type { PaymentProvider } from './provider.js';

// `known`: the user as the caller already has him; read only when he has no customer yet.
// `now`: the service's clock, for the row's updatedAt.
export async function ensureCustomer(db: SqlDb, provider: PaymentProvider, userId: string, now: Date, known?: User): Promise<{ user: User; customerId: string }> {
  if (known?.id === userId && known.stripeCustomerId) return { user: known, customerId: known.stripeCustomerId };
  const user = await userById(db, userId);
  if (!user) throw notFound('user');
  if (user.stripeCustomerId) return { user, customerId: user.stripeCustomerId };
  const { customerId } = await provider.createCustomer({ userId, email: user.email, idempotencyKey: customerKey(userId) });
  await recordCustomerId(db, userId, customerId, now);
  const saved = await userById(db, userId);
  if (!saved) throw notFound('user');
  return { user: saved, customerId: saved.stripeCustomerId! };
}

export async function ensureConnectedAccount(db: SqlDb, provider: PaymentProvider, user: User, now: Date): Promise<string> {
  if (user.connectAccountId) return user.connectAccountId;
  const { accountId } = await provider.createConnectedAccount({ userId: user.id, email: user.email, idempotencyKey: connectedAccountKey(user.id) });
  await recordConnectAccountId(db, user.id, accountId, now);
  const saved = await userById(db, user.id);
  if (!saved) throw notFound('user');
  return saved.connectAccountId!;
}
