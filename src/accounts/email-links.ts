// Sign-in by a link mailed to the address. Asking for one answers the same whatever the address (no
// account enumeration); a link works once, for 15 minutes; opening it signs in, proves the address, and
// on a first sign-in creates the account (unless SIGNUP=closed). Requests are counted per address and
// per client address in the database, by the service's clock, so every process counts them together.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { sha256Hex } from '../crypto/tokens.js';
import { newId } from '../ids.js';
import { AppError, forbidden, invalid as invalidInput, unauthenticated } from '../errors.js';
import { parseOrInvalid } from '../services/validation.js';
import { emailLinkStore } from '../stores/email-link-store.js';
import { insertUser, markEmailVerified, releaseUnprovenEmail, userByEmail } from '../stores/accounts-store.js';
import type { SessionService } from './sessions.js';
import type { Mailer } from './mailer.js';
import { isUniqueViolation } from '../db/errors.js';

export const EMAIL_LINK_TTL_MS = 15 * 60_000;
// At most this many links per address, and requests per client address, in one link lifetime.
export const LINKS_PER_EMAIL = 5;
export const LINKS_PER_CLIENT_ADDRESS = 20;

export const emailAddress = z.email('must be a valid email address').max(254, 'must be at most 254 characters');

// How a sign-in link reaches its user: by mail, printed in the log (development without SMTP_URL), or not
// at all (production without SMTP_URL: passkeys only).
export type LinkDelivery = 'mail' | 'log' | 'off';

export function linkDeliveryOf(config: Deps['config']): LinkDelivery {
  if (config.accounts.smtpUrl) return 'mail';
  return config.env === 'production' ? 'off' : 'log';
}

export function emailLinkService(deps: Pick<Deps, 'sql' | 'clock' | 'config' | 'secretBox' | 'logger' | 'urls'>, sessions: SessionService, mailer: Mailer | null) {
  const { clock, config } = deps;
  const delivery = linkDeliveryOf(config);
  const linkUrl = (token: string) => `${deps.urls.base}/sign-in/email#token=${token}`;

  return {
    delivery,

    async request(rawEmail: unknown, addressKey: string): Promise<void> {
      if (delivery === 'off') throw forbidden('sign-in links are not enabled on this server (no SMTP_URL); sign in with a passkey');
      const email = parseOrInvalid(emailAddress, typeof rawEmail === 'string' ? rawEmail.trim().toLowerCase() : rawEmail, 'email');
      const now = clock.now();
      const since = new Date(now.getTime() - EMAIL_LINK_TTL_MS);
      await deps.sql.transaction().execute(async (tx) => {
        const store = emailLinkStore(tx);
        await store.lockAddress(email);
        if ((await store.countSince({ email }, since)) >= LINKS_PER_EMAIL) throw tooMany('this address');
        if ((await store.countSince({ addressKey }, since)) >= LINKS_PER_CLIENT_ADDRESS) throw tooMany('your network address');
        // A link only where it can sign in: an account exists, or a first sign-in may create one.
        const mayUse = config.accounts.signup === 'open' || (await userByEmail(tx, email)) !== undefined;
        const token = mayUse ? randomBytes(32).toString('base64url') : null;
        await store.insert({
          id: newId('eml'),
          email,
          hash: token ? sha256Hex(token) : null,
          tokenEnc: token ? deps.secretBox.seal(token) : null,
          addressKey,
          createdAt: now,
          expiresAt: new Date(now.getTime() + EMAIL_LINK_TTL_MS),
        });
      });
    },

    // The mail job: sends the link (or, in development without SMTP_URL, logs it), then forgets the token.
    async send(emailLinkId: string): Promise<void> {
      const store = emailLinkStore(deps.sql);
      const row = await store.findForMail(emailLinkId);
      if (!row?.tokenEnc || row.usedAt || row.expiresAt <= clock.now()) return;
      const link = linkUrl(deps.secretBox.open(row.tokenEnc));
      if (mailer) {
        await mailer.send({
          to: row.email,
          subject: 'Your sign-in link',
          text: `Open this link to sign in to the task marketplace:\n\n${link}\n\nIt works once, within 15 minutes. If you did not ask for it, ignore this mail.\n`,
        });
      } else {
        // Development only (production has no link without a mailer): the operator is the user.
        deps.logger.warn({ email: row.email, link }, 'sign-in link (no SMTP_URL set: printed instead of mailed)');
      }
      await store.forgetToken(emailLinkId);
    },

    // The address a link signs in as, without using it: the page names it before the user decides.
    async describe(token: unknown): Promise<{ email: string }> {
      if (typeof token !== 'string' || token === '') throw invalidInput('token', 'token is required: the token of the sign-in link');
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw invalid();
      const email = await emailLinkStore(deps.sql).peek(sha256Hex(token), clock.now());
      if (!email) throw invalid();
      return { email };
    },

    // Opens a session for the link's address: the account's, or a new account's on a first sign-in.
    // `signedInAs`: the account the browser's session is of, if any. An address claimed by a passkey
    // sign-up and never proven is not its account's to receive: opened anywhere but in that account's
    // own browser session, the link releases the claim and its owner gets an account of their own.
    async signIn(token: unknown, userAgent: string | undefined, signedInAs: string | null = null) {
      if (typeof token !== 'string' || token === '') throw invalidInput('token', 'token is required: the token of the sign-in link');
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw invalid();
      const now = clock.now();
      try {
        return await deps.sql.transaction().execute(async (tx) => {
          const email = await emailLinkStore(tx).use(sha256Hex(token), now);
          if (!email) throw invalid();
          let existing = await userByEmail(tx, email);
          if (existing?.emailUnproven && existing.id !== signedInAs) {
            if (config.accounts.signup === 'closed') throw forbidden('new accounts are made by the operator on this server (SIGNUP=closed)');
            await releaseUnprovenEmail(tx, existing.id, now);
            deps.logger.info({ userId: existing.id }, 'an unproven address claimed at sign-up was released to its owner');
            existing = undefined;
          }
          let userId: string;
          let created = false;
          if (existing) {
            userId = existing.id;
            await markEmailVerified(tx, userId, now);
          } else {
            if (config.accounts.signup === 'closed') throw forbidden('new accounts are made by the operator on this server (SIGNUP=closed)');
            userId = newId('usr');
            await insertUser(tx, { id: userId, email, name: null, emailVerifiedAt: now }, now);
            created = true;
          }
          const session = await sessions.open(userId, 'email_link', userAgent, tx);
          return { ...session, userId, created };
        });
      } catch (error) {
        // The same address signing in twice at once, both creating it: the second link is spent; ask again.
        if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'the account was just created by another sign-in; ask for a new link');
        throw error;
      }
    },

    prune: () => emailLinkStore(deps.sql).prune(new Date(clock.now().getTime() - 86_400_000)),
  };
}

const invalid = () => unauthenticated('this sign-in link is invalid, already used or expired; ask for a new one');
const tooMany = (what: string) => new AppError('RATE_LIMITED', `too many sign-in links asked for ${what}; wait 15 minutes`, { details: { retryAfterSeconds: 900 } });

export type EmailLinkService = ReturnType<typeof emailLinkService>;
