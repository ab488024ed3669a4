// The passkey endpoints' own checks, without an authenticator (the browser test drives a real one): a
// challenge is used once and expires after 5 minutes by the service clock; malformed answers and sign-up
// input are refused with the field named.
import { afterAll, describe, expect, it } from 'vitest';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let server: TestServer;
let now = new Date();

const test = testWith({ serverTime: { clock: { now: () => now } } });

test.beforeAll(async ({ server: s }) => {
  server = s;
});
afterAll(async () => {
});

// A browser's answer for a challenge, as far as the service reads it before asking the library.
const answerFor = (challenge: string) => ({
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin: 'http://localhost' })).toString('base64url'), authenticatorData: 'AA', signature: 'AA' },
});

describe('passkey challenges', () => {
  it('are handed out for the relying party of the base URL, without naming any credential (discoverable)', async () => {
    const options = await server.api.post('/v1/auth/passkey/options');
    expect(options.status).toBe(200);
    expect(options.body.data.rpId).toBe('localhost');
    expect(options.body.data.allowCredentials ?? []).toEqual([]);
    expect(options.body.data.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it('work once', async () => {
    const { challenge } = (await server.api.post('/v1/auth/passkey/options')).body.data;
    const first = await server.api.post('/v1/auth/passkey', { body: { credential: answerFor(challenge) } });
    expect(first.status).toBe(401);
    expect(first.body.error.message).toMatch(/belongs to no account/);
    const second = await server.api.post('/v1/auth/passkey', { body: { credential: answerFor(challenge) } });
    expect(second.status).toBe(401);
    expect(second.body.error.message).toMatch(/expired or was already used/);
  });

  it('expire after 5 minutes', async () => {
    const { challenge } = (await server.api.post('/v1/auth/passkey/options')).body.data;
    now = new Date(now.getTime() + 5 * 60_000 + 1_000);
    const late = await server.api.post('/v1/auth/passkey', { body: { credential: answerFor(challenge) } });
    expect(late.status).toBe(401);
    expect(late.body.error.message).toMatch(/expired or was already used/);
  });

  it('are never made up by the browser: an unknown challenge is refused', async () => {
    const made = await server.api.post('/v1/auth/passkey', { body: { credential: answerFor('invented-challenge-0000000000') } });
    expect(made.status).toBe(401);
  });

  it('refuse a malformed answer with 400 naming the credential', async () => {
    const malformed = await server.api.post('/v1/auth/passkey', { body: { credential: { id: 'x' } } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('INVALID_INPUT');
    expect(malformed.body.error.message).toMatch(/credential/);
  });
});

describe('sign-up', () => {
  it('names the field at fault, and answers an address that has an account as any other (passkey-claims.test.ts)', async () => {
    const noName = await server.api.post('/v1/auth/sign-up/options', { body: { email: 'a@example.com' } });
    expect(noName.status).toBe(400);
    expect(noName.body.error.message).toMatch(/name/);
    const badEmail = await server.api.post('/v1/auth/sign-up/options', { body: { name: 'A', email: 'nope' } });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.error.message).toMatch(/email/);
    await server.createUser('taken@example.com');
    const taken = await server.api.post('/v1/auth/sign-up/options', { body: { name: 'A', email: 'Taken@Example.com' } });
    expect(taken.status).toBe(200);
    const fresh = await server.api.post('/v1/auth/sign-up/options', { body: { name: 'Ada', email: 'ada-new@example.com' } });
    expect(fresh.status).toBe(200);
    expect(fresh.body.data).toMatchObject({ rp: { id: 'localhost' }, user: { name: 'ada-new@example.com', displayName: 'Ada' }, authenticatorSelection: { residentKey: 'required' } });
  });

  it('answers the session endpoints 401 without a session', async () => {
    expect((await server.api.get('/v1/account/sessions')).status).toBe(401);
    expect((await server.api.get('/v1/account/passkeys')).status).toBe(401);
    expect((await server.api.delete('/v1/account/sessions')).status).toBe(401);
  });
});
