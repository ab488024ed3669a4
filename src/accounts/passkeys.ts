// Passkeys (WebAuthn) with @simplewebauthn/server: create an account with one, sign in with one
// (discoverable credentials: the browser offers the user's passkeys, no email typed), add and remove
// them. The relying party is the host of PUBLIC_BASE_URL (localhost in development); a challenge is
// used once and expires after CHALLENGE_TTL_MS. A passkey is the whole sign-in (no password beside it), so
// the authenticator must verify its user (PIN, fingerprint, face), not only see someone touch it.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import { lazyImport } from '../load-package.js';
import type { Deps } from '../deps.js';
import { newId } from '../ids.js';
import { AppError, conflict, forbidden, invalid, notFound, unauthenticated } from '../errors.js';
import { parseOrInvalid } from '../services/validation.js';
import { passkeyStore } from '../stores/passkey-store.js';
import { insertUser } from '../stores/accounts-store.js';
import { emailAddress } from './email-links.js';
import type { SessionService } from './sessions.js';
import { isUniqueViolation } from '../db/errors.js';
import { displayName } from '../services/display-name.js';

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

export function passkeyService(deps: Pick<Deps, 'sql' | 'clock' | 'config' | 'urls' | 'logger'>, sessions: SessionService) {
  const { clock } = deps;
  const relyingParty = () => {
    const base = new URL(deps.urls.base);
    return { rpID: base.hostname, origin: base.origin };
  };
  const store = passkeyStore(deps.sql);

  async function newChallenge(purpose: string, fields: { userId?: string; email?: string; name?: string; newUserId?: string }, challenge: string) {
    const now = clock.now();
    await store.pruneChallenges(now);
    await store.insertChallenge({
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

  async function verifyNew(raw: unknown, purpose: string) {
    const response = answerOf(raw);
    const challenge = await store.takeChallenge(challengeOf(response), purpose, clock.now());
    if (!challenge) throw expired();
    const { rpID, origin } = relyingParty();
    const { verifyRegistrationResponse } = await loadWebAuthn();
    const verified = await verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
    }).catch((error: unknown) => {
      deps.logger.info({ err: error }, 'passkey registration refused');
      throw refused();
    });
    if (!verified.verified) throw refused();
    return { challenge, credential: verified.registrationInfo.credential };
  }

  return {
    async signUpOptions(raw: unknown) {
      if (deps.config.accounts.signup === 'closed') throw forbidden('new accounts are made by the operator on this server (SIGNUP=closed)');
      // No look-up of the address here: options answer alike for every address (no enumeration). A
      // taken address is refused when the account would be made (signUp), after a whole ceremony.
      const input = parseOrInvalid(signUpInput, raw);
      const newUserId = newId('usr');
      const { generateRegistrationOptions } = await loadWebAuthn();
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: relyingParty().rpID,
        userName: input.email,
        userDisplayName: input.name,
        userID: new TextEncoder().encode(newUserId),
        attestationType: 'none',
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      await newChallenge('sign_up', { email: input.email, name: input.name, newUserId }, options.challenge);
      return options;
    },

    // Creates the account with its first passkey and signs it in, in one transaction.
    async signUp(raw: unknown, userAgent: string | undefined) {
      if (deps.config.accounts.signup === 'closed') throw forbidden('new accounts are made by the operator on this server (SIGNUP=closed)');
      const { challenge, credential } = await verifyNew(raw, 'sign_up');
      const userId = challenge.newUserId!;
      const now = clock.now();
      try {
        return await deps.sql.transaction().execute(async (tx) => {
          // Nobody has proven the address: the account holds it as a claim (see email-links.ts signIn).
          await insertUser(tx, { id: userId, email: challenge.email!, name: challenge.name, emailVerifiedAt: null, emailUnproven: true }, now);
          await passkeyStore(tx).insert({
            id: newId('pk'),
            userId,
            credentialId: credential.id,
            publicKey: Buffer.from(credential.publicKey),
            counter: credential.counter,
            transports: credential.transports ?? [],
            name: 'First passkey',
            createdAt: now,
          });
          const session = await sessions.open(userId, 'sign_up', userAgent, tx);
          return { ...session, userId };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
    },

    async signInOptions() {
      // No allowCredentials: the browser offers whichever of its passkeys belong to this site.
      const { generateAuthenticationOptions } = await loadWebAuthn();
      const options = await generateAuthenticationOptions({ rpID: relyingParty().rpID, userVerification: 'required' });
      await newChallenge('sign_in', {}, options.challenge);
      return options;
    },

    async signIn(raw: unknown, userAgent: string | undefined) {
      const response = answerOf(raw);
      const challenge = await store.takeChallenge(challengeOf(response), 'sign_in', clock.now());
      if (!challenge) throw expired();
      const passkey = await store.byCredentialId(response.id);
      if (!passkey) throw unauthenticated('this passkey belongs to no account here; it may have been removed');
      const { rpID, origin } = relyingParty();
      const { verifyAuthenticationResponse } = await loadWebAuthn();
      const verified = await verifyAuthenticationResponse({
        response: response as unknown as AuthenticationResponseJSON,
        expectedChallenge: challenge.challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: Number(passkey.counter), transports: passkey.transports as never },
        requireUserVerification: true,
      }).catch((error: unknown) => {
        deps.logger.info({ err: error }, 'passkey sign-in refused');
        throw refused();
      });
      if (!verified.verified) throw refused();
      await store.used(passkey.id, verified.authenticationInfo.newCounter, clock.now());
      const session = await sessions.open(passkey.userId, 'passkey', userAgent);
      return { ...session, userId: passkey.userId };
    },

    async addOptions(user: { id: string; email: string; name: string | null }) {
      const existing = await store.listOf(user.id);
      if (existing.length >= MAX_PASSKEYS) throw conflict(`an account holds at most ${MAX_PASSKEYS} passkeys; remove one first`);
      const { generateRegistrationOptions } = await loadWebAuthn();
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: relyingParty().rpID,
        userName: user.email,
        userDisplayName: user.name ?? user.email,
        userID: new TextEncoder().encode(user.id),
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      await newChallenge('add_passkey', { userId: user.id }, options.challenge);
      return options;
    },

    async add(userId: string, raw: unknown, rawName: unknown) {
      const name = rawName === undefined || rawName === null ? 'Passkey' : parseOrInvalid(passkeyName, rawName, 'name');
      const { challenge, credential } = await verifyNew(raw, 'add_passkey');
      if (challenge.userId !== userId) throw expired();
      const row = { id: newId('pk'), userId, credentialId: credential.id, publicKey: Buffer.from(credential.publicKey), counter: credential.counter, transports: credential.transports ?? [], name, createdAt: clock.now() };
      try {
        await store.insert(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('this passkey is already registered');
        throw error;
      }
      return view({ ...row, lastUsedAt: null });
    },

    async list(userId: string) {
      return (await store.listOf(userId)).map(view);
    },

    async remove(userId: string, id: string) {
      if (!(await store.remove(userId, id))) throw notFound('passkey');
    },
  };
}

const view = (p: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null }) => ({ id: p.id, name: p.name, createdAt: p.createdAt, lastUsedAt: p.lastUsedAt });

export type PasskeyService = ReturnType<typeof passkeyService>;
