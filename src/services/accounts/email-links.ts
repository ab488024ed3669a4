// Sign-in by a link mailed to the address. Asking for one answers the same whatever the address (no
// account enumeration); a link works once, for 15 minutes; opening it signs in, proves the address, and
// on a first sign-in creates the account (unless SIGNUP=closed). Requests are counted per address and
// per client address in the database, by the service's clock, so every process counts them together.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { sha256Hex } from '../../crypto/tokens.js';
import { newId } from '../../ids.js';
import { AppError, forbidden, invalid as invalidInput, unauthenticated } from '../../errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import * as store from '../../stores/email-link-store.js';
import { insertUser, markEmailVerified, releaseUnprovenEmail, userByEmail } from '../../stores/accounts-store.js';
import { parseOrInvalid } from '../validation.js';
import type { AccountContext } from './context.js';
import { openSession } from './sessions.js';

const EMAIL_LINK_TTL_MS = 15 * 60_000;
// At most this many links per address, and requests per client address, in one link lifetime.
const LINKS_PER_EMAIL = 5;
const LINKS_PER_CLIENT_ADDRESS = 20;

export const emailAddress = z.email('must be a valid email address').max(254, 'must be at most 254 characters');

// How a sign-in link reaches its user: by mail, printed in the log (development without SMTP_URL), or not
// at all (production without SMTP_URL: passkeys only).
export type LinkDelivery = 'mail' | 'log' | 'off';

export function linkDeliveryOf(config: Deps['config']): LinkDelivery {
  if (config.accounts.smtpUrl) return 'mail';
  return config.env === 'production' ? 'off' : 'log';
}

const invalid = () => unauthenticated('this sign-in link is invalid, already used or expired; ask for a new one');
const tooMany = (what: string) => new AppError('RATE_LIMITED', `too many sign-in links asked for ${what}; wait 15 minutes`, { details: { retryAfterSeconds: 900 } });
const signUpClosed = () => forbidden('new accounts are made by the operator on this server (SIGNUP=closed)');

function tokenOf(token: unknown): string {
  if (typeof token !== 'string' || token === '') throw invalidInput('token', 'token is required: the token of the sign-in link');
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw invalid();
  return token;
}

export async function requestLink(ctx: AccountContext, rawEmail: unknown, addressKey: string): Promise<void> {
  const { config, clock } = ctx.deps;
  if (linkDeliveryOf(config) === 'off') throw forbidden('sign-in links are not enabled on this server (no SMTP_URL); sign in with a passkey');
  const email = parseOrInvalid(emailAddress, typeof rawEmail === 'string' ? rawEmail.trim().toLowerCase() : rawEmail, 'email');
  const now = clock.now();
  const since = new Date(now.getTime() - EMAIL_LINK_TTL_MS);
  await ctx.deps.sql.transaction().execute(async (tx) => {
    await store.lockLinkAddress(tx, email);
    if ((await store.linksSince(tx, { email }, since)) >= LINKS_PER_EMAIL) throw tooMany('this address');
    if ((await store.linksSince(tx, { addressKey }, since)) >= LINKS_PER_CLIENT_ADDRESS) throw tooMany('your network address');
    // A link only where it can sign in: an account exists, or a first sign-in may create one.
    const mayUse = config.accounts.signup === 'open' || (await userByEmail(tx, email)) !== undefined;
    const token = mayUse ? randomBytes(32).toString('base64url') : null;
    await store.insertLink(tx, {
      id: newId('eml'),
      email,
      hash: token ? sha256Hex(token) : null,
      tokenEnc: token ? ctx.deps.secretBox.seal(token) : null,
      addressKey,
      createdAt: now,
      expiresAt: new Date(now.getTime() + EMAIL_LINK_TTL_MS),
    });
  });
}

// The mail job: sends the link (or, in development without SMTP_URL, logs it), then forgets the token.
export async function sendLink(ctx: AccountContext, emailLinkId: string): Promise<void> {
  const { sql: db, secretBox, logger } = ctx.deps;
  const row = await store.linkForMail(db, emailLinkId);
  if (!row?.tokenEnc || row.usedAt || row.expiresAt <= ctx.deps.clock.now()) return;
  const link = `${ctx.deps.urls.base}/sign-in/email#token=${secretBox.open(row.tokenEnc)}`;
  if (ctx.mailer) {
    await ctx.mailer.send({
      to: row.email,
      subject: 'Your sign-in link',
      text: `Open this link to sign in to the task marketplace:\n\n${link}\n\nIt works once, within 15 minutes. If you did not ask for it, ignore this mail.\n`,
    });
  } else {
    // Development only (production has no link without a mailer): the operator is the user.
    logger.warn({ email: row.email, link }, 'sign-in link (no SMTP_URL set: printed instead of mailed)');
  }
  await store.forgetLinkToken(db, emailLinkId);
}

// The address a link signs in as, without using it: the page names it before the user decides.
export async function describeLink(ctx: AccountContext, token: unknown): Promise<{ email: string }> {
  const email = await store.peekLink(ctx.deps.sql, sha256Hex(tokenOf(token)), ctx.deps.clock.now());
  if (!email) throw invalid();
  return { email };
}

// Opens a session for the link's address: the account's, or a new account's on a first sign-in.
// `signedInAs`: the account the browser's session is of, if any. An address claimed by a passkey
// sign-up and never proven is not its account's to receive: opened anywhere but in that account's
// own browser session, the link releases the claim and its owner gets an account of their own.
export async function signInWithLink(ctx: AccountContext, token: unknown, userAgent: string | undefined, signedInAs: string | null = null) {
  const { config, logger } = ctx.deps;
  const hash = sha256Hex(tokenOf(token));
  const now = ctx.deps.clock.now();
  try {
    return await ctx.deps.sql.transaction().execute(async (tx) => {
      const email = await store.useLink(tx, hash, now);
      if (!email) throw invalid();
      let existing = await userByEmail(tx, email);
      if (existing?.emailUnproven && existing.id !== signedInAs) {
        if (config.accounts.signup === 'closed') throw signUpClosed();
        await releaseUnprovenEmail(tx, existing.id, now);
        logger.info({ userId: existing.id }, 'an unproven address claimed at sign-up was released to its owner');
        existing = undefined;
      }
      let userId: string;
      let created = false;
      if (existing) {
        userId = existing.id;
        await markEmailVerified(tx, userId, now);
      } else {
        if (config.accounts.signup === 'closed') throw signUpClosed();
        userId = newId('usr');
        await insertUser(tx, { id: userId, email, name: null, emailVerifiedAt: now }, now);
        created = true;
      }
      const session = await openSession(ctx, userId, 'email_link', userAgent, tx);
      return { ...session, userId, created };
    });
  } catch (error) {
    // The same address signing in twice at once, both creating it: the second link is spent; ask again.
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'the account was just created by another sign-in; ask for a new link');
    throw error;
  }
}

export const pruneLinks = (ctx: AccountContext) => store.pruneLinks(ctx.deps.sql, new Date(ctx.deps.clock.now().getTime() - 86_400_000));
