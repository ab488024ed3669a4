// Passkey sign-up against hostile use, over HTTP with a software authenticator and mail on a real SMTP
// server: sign-up options answer alike whatever the address (no enumeration); a passkey sign-up naming
// an address nobody proved is only a claim, which the address's owner releases by signing in by link;
// the same person proves their own claim by opening the link in their own session; passkeys must verify
// their user; a sign-in link is named before it is used and is not used by a request from another site.
import { describe, expect, it } from 'vitest';
import { testWithMailbox } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { softAuthenticator } from './support/soft-authenticator.js';
import type { Mailbox } from './support/mailbox.js';

let server: TestServer;
let mailbox: Mailbox;
let origin: string;

const test = testWithMailbox();

test.beforeAll(async ({ server: s, mailbox: m }) => {
  [server, mailbox] = [s, m];
  origin = new URL(server.app.services.deps.urls.base).origin;
}, 60_000);

const browser = { 'sec-fetch-site': 'same-origin' };
const cookieOf = (res: { headers: Headers }) => res.headers.get('set-cookie')?.split(';')[0] ?? '';
const me = async (cookie: string) => (await server.api.post('/graphql', { headers: { cookie, ...browser }, body: { query: '{ me { id email name } }' } })).body.data?.me;

async function signUp(authenticator: ReturnType<typeof softAuthenticator>, name: string, email: string) {
  const options = await server.api.post('/v1/auth/sign-up/options', { body: { name, email }, headers: browser });
  expect(options.status).toBe(200);
  return server.api.post('/v1/auth/sign-up', { body: { credential: authenticator.register(options.body.data) }, headers: browser });
}

async function passkeySignIn(authenticator: ReturnType<typeof softAuthenticator>) {
  const options = await server.api.post('/v1/auth/passkey/options', { headers: browser });
  return server.api.post('/v1/auth/passkey', { body: { credential: authenticator.signIn(options.body.data) }, headers: browser });
}

async function linkTokenFor(email: string): Promise<string> {
  const before = mailbox.countTo(email);
  expect((await server.api.post('/v1/auth/email-link', { body: { email }, headers: browser })).status).toBe(202);
  const mail = await mailbox.mailTo(email, before + 1);
  return /#token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
}

describe('sign-up options', () => {
  it('answer alike for an address with an account and one without (no enumeration); the account is refused only at the end', async () => {
    await server.createUser('known@example.com');
    const known = await server.api.post('/v1/auth/sign-up/options', { body: { name: 'A', email: 'Known@Example.com' } });
    const unknown = await server.api.post('/v1/auth/sign-up/options', { body: { name: 'A', email: 'unknown@example.com' } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(Object.keys(known.body.data).sort()).toEqual(Object.keys(unknown.body.data).sort());
    expect(known.body.data.user.name).toBe('known@example.com');
    // A whole passkey ceremony later, the address is found taken.
    const taken = await server.api.post('/v1/auth/sign-up', { body: { credential: softAuthenticator(origin).register(known.body.data) } });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'CONFLICT', field: 'email' });
    expect(taken.headers.get('set-cookie')).toBeNull();
  });
});

describe('an address claimed by a passkey sign-up', () => {
  it("is released when its owner signs in by link: the owner gets an account of their own, the claimant's passkey never opens it", async () => {
    const mallory = softAuthenticator(origin);
    const claimed = await signUp(mallory, 'Mallory', 'owner@example.com');
    expect(claimed.status).toBe(201);
    const malloryId = claimed.body.data.user.id as string;

    const opened = await server.api.post('/v1/auth/email-link/sign-in', { body: { token: await linkTokenFor('owner@example.com') }, headers: browser });
    expect(opened.status).toBe(200);
    expect(opened.body.data).toMatchObject({ created: true, user: { email: 'owner@example.com', name: null } });
    const ownerId = opened.body.data.user.id as string;
    expect(ownerId).not.toBe(malloryId);
    expect(await server.sql.selectFrom('passkeys').select('id').where('userId', '=', ownerId).execute()).toEqual([]);

    // Mallory's passkey and session reach Mallory's own account, which no longer holds the address.
    const back = await passkeySignIn(mallory);
    expect(back.status).toBe(200);
    expect(back.body.data.user).toEqual({ id: malloryId, email: `${malloryId}@unproven.invalid`, name: 'Mallory' });
    expect(await me(cookieOf(claimed))).toMatchObject({ id: malloryId });
    // The owner's next link lands in the owner's account.
    const again = await server.api.post('/v1/auth/email-link/sign-in', { body: { token: await linkTokenFor('owner@example.com') }, headers: browser });
    expect(again.body.data).toMatchObject({ created: false, user: { id: ownerId } });
  });

  it('is proven by its own holder opening the link in the session of that account', async () => {
    const carol = softAuthenticator(origin);
    const signedUp = await signUp(carol, 'Carol', 'carol@example.com');
    const carolId = signedUp.body.data.user.id as string;
    const cookie = cookieOf(signedUp);
    const proof = async (session: string) => (await server.api.post('/graphql', { headers: { cookie: session, ...browser }, body: { query: '{ me { emailProven } }' } })).body.data.me.emailProven;
    expect(await proof(cookie)).toBe(false);
    const proven = await server.api.post('/v1/auth/email-link/sign-in', { body: { token: await linkTokenFor('carol@example.com') }, headers: { cookie, ...browser } });
    expect(proven.body.data).toMatchObject({ created: false, user: { id: carolId, email: 'carol@example.com', name: 'Carol' } });
    expect(await server.sql.selectFrom('users').select(['emailUnproven', 'emailVerifiedAt']).where('id', '=', carolId).executeTakeFirstOrThrow()).toMatchObject({ emailUnproven: false, emailVerifiedAt: expect.any(Date) });
    expect(await proof(cookieOf(proven))).toBe(true);
    // Proven: a link opened anywhere now signs in to Carol's account, with her passkey still on it.
    const elsewhere = await server.api.post('/v1/auth/email-link/sign-in', { body: { token: await linkTokenFor('carol@example.com') }, headers: browser });
    expect(elsewhere.body.data).toMatchObject({ created: false, user: { id: carolId } });
    expect((await passkeySignIn(carol)).body.data.user.id).toBe(carolId);
  });
});

describe('user verification', () => {
  it('is required of a passkey at sign-up and at sign-in', async () => {
    const verifying = { userVerified: false };
    const authenticator = softAuthenticator(origin, verifying);
    const unverified = await signUp(authenticator, 'Uv', 'uv@example.com');
    expect(unverified.status).toBe(401);
    expect(unverified.body.error.code).toBe('UNAUTHENTICATED');
    verifying.userVerified = true;
    expect((await signUp(authenticator, 'Uv', 'uv@example.com')).status).toBe(201);
    verifying.userVerified = false;
    expect((await passkeySignIn(authenticator)).status).toBe(401);
    verifying.userVerified = true;
    expect((await passkeySignIn(authenticator)).status).toBe(200);
  });
});

describe('a sign-in link', () => {
  it('is named before it is used, and a request from another site neither names nor uses it', async () => {
    const token = await linkTokenFor('named@example.com');
    const described = await server.api.post('/v1/auth/email-link/describe', { body: { token }, headers: browser });
    expect(described.body).toEqual({ data: { email: 'named@example.com' } });
    for (const site of ['cross-site', 'same-site']) {
      const forged = await server.api.post('/v1/auth/email-link/sign-in', { body: { token }, headers: { 'sec-fetch-site': site } });
      expect(forged.status).toBe(403);
      expect(forged.headers.get('set-cookie')).toBeNull();
      expect((await server.api.post('/v1/auth/email-link/describe', { body: { token }, headers: { 'sec-fetch-site': site } })).status).toBe(403);
    }
    const fromOrigin = await server.api.post('/v1/auth/email-link/sign-in', { body: { token }, headers: { origin: 'https://evil.example' } });
    expect(fromOrigin.status).toBe(403);
    // Still unspent: its owner signs in with it.
    const used = await server.api.post('/v1/auth/email-link/sign-in', { body: { token }, headers: browser });
    expect(used.status).toBe(200);
    expect((await server.api.post('/v1/auth/email-link/describe', { body: { token }, headers: browser })).status).toBe(401);
  });
});
