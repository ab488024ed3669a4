// Passkeys (WebAuthn) with @simplewebauthn/server: create an account with one, sign in with one
// (discoverable credentials: the browser offers the user's passkeys, no email typed), add and remove
// them. The relying party is the host of PUBLIC_BASE_URL (localhost in development); a challenge is
// used once and expires after CHALLENGE_TTL_MS. A passkey is the whole sign-in (no password beside it), so
// the authenticator must verify its user (PIN, fingerprint, face), not only see someone touch it.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import { lazyImport } from '../../load-package.js';
import { newId } from '../../ids.js';
import { AppError, conflict, forbidden, invalid, notFound, unauthenticated } from '../../errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import * as store from '../../stores/passkey-store.js';
import { insertUser } from '../../stores/accounts-store.js';
import { parseOrInvalid } from '../validation.js';
import { displayName } from '../display-name.js';
import type { AccountContext } from './context.js';
import { emailAddress } from './email-links.js';
import { openSession } from './sessions.js';

const CHALLENGE_TTL_MS = 5 * 60_000;
const RP_NAME = 'Task marketplace';
const MAX_PASSKEYS = 20;
// Only the passkey routes use the library (about 15 MB resident once loaded).
const loadWebAuthn = lazyImport(() => import('@simplewebauthn/server'));

const signUpInput = z.object({
  name: z.string().transform(displayName).pipe(z.string().min(1, 'is required').max(100, 'must be at most 100 characters')),
  email: z.string().trim().toLowerCase().pipe(emailAddress),
});
const passkeyName = z.string().transform(displayName).pipe(z.string().min(1, 'is required').max(60, 'must be at most 60 characters'));
// The browser's answer: checked for shape here, for content by the library.
const credentialResponse = z.object({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.object({ clientDataJSON: z.string().min(1).max(4096) }).loose(),
}).loose();

function answerOf(raw: unknown) {
  const parsed = credentialResponse.safeParse(raw);
  if (!parsed.success) throw invalid('credential', "credential must be the browser's passkey answer: an object with id, rawId, type and response");
  return parsed.data;
}

// The challenge the browser signed, from the client data it sent (the library checks it matches).
function challengeOf(response: z.infer<typeof credentialResponse>): string {
  try {
    const client = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    if (typeof client.challenge === 'string' && client.challenge.length <= 200) return client.challenge;
  } catch {
    // answered below
  }
  throw invalid('credential', 'the passkey answer is malformed');
}

const emailTaken = () => new AppError('CONFLICT', 'an account with this email exists; sign in instead', { field: 'email' });
const refused = () => unauthenticated('the passkey was not accepted; try again');
const expired = () => new AppError('UNAUTHENTICATED', 'the passkey request expired or was already used; start again');

const signUpClosed = () => forbidden('new accounts are made by the operator on this server (SIGNUP=closed)');
const view = (p: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null }) => ({ id: p.id, name: p.name, createdAt: p.createdAt, lastUsedAt: p.lastUsedAt });

function relyingParty(ctx: AccountContext) {
  const base = new URL(ctx.deps.urls.base);
  return { rpID: base.hostname, origin: base.origin };
}

async function newChallenge(ctx: AccountContext, purpose: string, fields: { userId?: string; email?: string; name?: string; newUserId?: string }, challenge: string) {
  const now = ctx.deps.clock.now();
  await store.pruneChallenges(ctx.deps.sql, now);
  await store.insertChallenge(ctx.deps.sql, {
    id: newId('wch'),
    challenge,
    purpose,
    userId: fields.userId ?? null,
    email: fields.email ?? null,
    name: fields.name ?? null,
    newUserId: fields.newUserId ?? null,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
}

async function verifyNew(ctx: AccountContext, raw: unknown, purpose: string) {
  const response = answerOf(raw);
  const challenge = await store.takeChallenge(ctx.deps.sql, challengeOf(response), purpose, ctx.deps.clock.now());
  if (!challenge) throw expired();
  const { rpID, origin } = relyingParty(ctx);
  const { verifyRegistrationResponse } = await loadWebAuthn();
  const verified = await verifyRegistrationResponse({
    response: response as unknown as RegistrationResponseJSON,
    expectedChallenge: challenge.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
  }).catch((error: unknown) => {
    ctx.deps.logger.info({ err: error }, 'passkey registration refused');
    throw refused();
  });
  if (!verified.verified) throw refused();
  return { challenge, credential: verified.registrationInfo.credential };
}

export async function signUpOptions(ctx: AccountContext, raw: unknown) {
  if (ctx.deps.config.accounts.signup === 'closed') throw signUpClosed();
  // No look-up of the address here: options answer alike for every address (no enumeration). A
  // taken address is refused when the account would be made (signUp), after a whole ceremony.
  const input = parseOrInvalid(signUpInput, raw);
  const newUserId = newId('usr');
  const { generateRegistrationOptions } = await loadWebAuthn();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty(ctx).rpID,
    userName: input.email,
    userDisplayName: input.name,
    userID: new TextEncoder().encode(newUserId),
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await newChallenge(ctx, 'sign_up', { email: input.email, name: input.name, newUserId }, options.challenge);
  return options;
}

// Creates the account with its first passkey and signs it in, in one transaction.
export async function signUp(ctx: AccountContext, raw: unknown, userAgent: string | undefined) {
  if (ctx.deps.config.accounts.signup === 'closed') throw signUpClosed();
  const { challenge, credential } = await verifyNew(ctx, raw, 'sign_up');
  const userId = challenge.newUserId!;
  const now = ctx.deps.clock.now();
  try {
    return await ctx.deps.sql.transaction().execute(async (tx) => {
      // Nobody has proven the address: the account holds it as a claim (see email-links.ts signInWithLink).
      await insertUser(tx, { id: userId, email: challenge.email!, name: challenge.name, emailVerifiedAt: null, emailUnproven: true }, now);
      await store.insertPasskey(tx, {
        id: newId('pk'),
        userId,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name: 'First passkey',
        createdAt: now,
      });
      const session = await openSession(ctx, userId, 'sign_up', userAgent, tx);
      return { ...session, userId };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

export async function signInOptions(ctx: AccountContext) {
  // No allowCredentials: the browser offers whichever of its passkeys belong to this site.
  const { generateAuthenticationOptions } = await loadWebAuthn();
  const options = await generateAuthenticationOptions({ rpID: relyingParty(ctx).rpID, userVerification: 'required' });
  await newChallenge(ctx, 'sign_in', {}, options.challenge);
  return options;
}

export async function signInWithPasskey(ctx: AccountContext, raw: unknown, userAgent: string | undefined) {
  const { sql: db, clock } = ctx.deps;
  const response = answerOf(raw);
  const challenge = await store.takeChallenge(db, challengeOf(response), 'sign_in', clock.now());
  if (!challenge) throw expired();
  const passkey = await store.passkeyByCredentialId(db, response.id);
  if (!passkey) throw unauthenticated('this passkey belongs to no account here; it may have been removed');
  const { rpID, origin } = relyingParty(ctx);
  const { verifyAuthenticationResponse } = await loadWebAuthn();
  const verified = await verifyAuthenticationResponse({
    response: response as unknown as AuthenticationResponseJSON,
    expectedChallenge: challenge.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: Number(passkey.counter), transports: passkey.transports as never },
    requireUserVerification: true,
  }).catch((error: unknown) => {
    ctx.deps.logger.info({ err: error }, 'passkey sign-in refused');
    throw refused();
  });
  if (!verified.verified) throw refused();
  await store.recordPasskeyUse(db, passkey.id, verified.authenticationInfo.newCounter, clock.now());
  const session = await openSession(ctx, passkey.userId, 'passkey', userAgent);
  return { ...session, userId: passkey.userId };
}

export async function addPasskeyOptions(ctx: AccountContext, user: { id: string; email: string; name: string | null }) {
  const existing = await store.passkeysOf(ctx.deps.sql, user.id);
  if (existing.length >= MAX_PASSKEYS) throw conflict(`an account holds at most ${MAX_PASSKEYS} passkeys; remove one first`);
  const { generateRegistrationOptions } = await loadWebAuthn();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty(ctx).rpID,
    userName: user.email,
    userDisplayName: user.name ?? user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await newChallenge(ctx, 'add_passkey', { userId: user.id }, options.challenge);
  return options;
}

export async function addPasskey(ctx: AccountContext, userId: string, raw: unknown, rawName: unknown) {
  const name = rawName === undefined || rawName === null ? 'Passkey' : parseOrInvalid(passkeyName, rawName, 'name');
  const { challenge, credential } = await verifyNew(ctx, raw, 'add_passkey');
  if (challenge.userId !== userId) throw expired();
  const row = { id: newId('pk'), userId, credentialId: credential.id, publicKey: Buffer.from(credential.publicKey), counter: credential.counter, transports: credential.transports ?? [], name, createdAt: ctx.deps.clock.now() };
  try {
    await store.insertPasskey(ctx.deps.sql, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('this passkey is already registered');
    throw error;
  }
  return view({ ...row, lastUsedAt: null });
}

export async function listPasskeys(ctx: AccountContext, userId: string) {
  return (await store.passkeysOf(ctx.deps.sql, userId)).map(view);
}

export async function removePasskey(ctx: AccountContext, userId: string, id: string) {
  if (!(await store.removePasskey(ctx.deps.sql, userId, id))) throw notFound('passkey');
}
