// The users table's columns by the User model's field names, for the read every authenticated request
// makes (the API key with its user, services/accounts.ts), written in SQL: a Prisma model call costs about
// twice a raw statement (bench/prisma-call-cost.ts). Typed by the model's fields, so the compiler points
// here when the model gains one.
import type { Prisma, User } from '../generated/prisma/client.js';
import { selectionOf, type Columns } from '../db/columns.js';

export const USER_COLUMNS: Columns<User> = {
  id: ['id', 'text'],
  email: ['email', 'text'],
  name: ['name', 'text'],
  externalSubject: ['external_subject', 'text'],
  isAdmin: ['is_admin', 'boolean'],
  stripeCustomerId: ['stripe_customer_id', 'text'],
  defaultPaymentMethodId: ['default_payment_method_id', 'text'],
  cardBrand: ['card_brand', 'text'],
  cardLast4: ['card_last4', 'text'],
  connectAccountId: ['connect_account_id', 'text'],
  notificationUrl: ['notification_url', 'text'],
  notificationSecretEnc: ['notification_secret_enc', 'text'],
  emailVerifiedAt: ['email_verified_at', 'timestamptz'],
  createdAt: ['created_at', 'timestamptz'],
  updatedAt: ['updated_at', 'timestamptz'],
};

export const userSelection = (alias: string): Prisma.Sql => selectionOf(USER_COLUMNS, alias);
