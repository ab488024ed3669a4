// The processor-side records of a user: the customer (who pays) and the connected account (who is paid).
// Created on first need, once: a racing second request sends the same idempotency key, gets the same
// record back, and the conditional write keeps the first id.
import type { PrismaClient } from '../db/client.js';
import type { User } from '../generated/prisma/client.js';
import { notFound } from '../errors.js';
import { connectedAccountKey, customerKey } from './keys.js';
import type { PaymentProvider } from './provider.js';

// `known`: the user as the caller already has him; read only when he has no customer yet.
export async function ensureCustomer(prisma: PrismaClient, provider: PaymentProvider, userId: string, known?: User): Promise<{ user: User; customerId: string }> {
  if (known?.id === userId && known.stripeCustomerId) return { user: known, customerId: known.stripeCustomerId };
  const user = await prisma.user.findUnique({ where: { id: userId } });
  if (!user) throw notFound('user');
  if (user.stripeCustomerId) return { user, customerId: user.stripeCustomerId };
  const { customerId } = await provider.createCustomer({ userId, email: user.email, idempotencyKey: customerKey(userId) });
  await prisma.user.updateMany({ where: { id: userId, stripeCustomerId: null }, data: { stripeCustomerId: customerId } });
  const saved = await prisma.user.findUniqueOrThrow({ where: { id: userId } });
  return { user: saved, customerId: saved.stripeCustomerId! };
}

export async function ensureConnectedAccount(prisma: PrismaClient, provider: PaymentProvider, user: User): Promise<string> {
  if (user.connectAccountId) return user.connectAccountId;
  const { accountId } = await provider.createConnectedAccount({ userId: user.id, email: user.email, idempotencyKey: connectedAccountKey(user.id) });
  await prisma.user.updateMany({ where: { id: user.id, connectAccountId: null }, data: { connectAccountId: accountId } });
  const saved = await prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { connectAccountId: true } });
  return saved.connectAccountId!;
}
