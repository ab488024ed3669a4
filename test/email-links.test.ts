// Sign-in links by email, caught on a real SMTP server started here (smtp-server): asking answers 202
// whatever the address; the link signs in (creating the account on a first sign-in) and proves the
// address; it works once and not after 15 minutes (the service clock); requests are limited per address
// and per client address, and guessing links is throttled. Without SMTP_URL, development logs the link.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logLines } from './support/fixtures.js';
import { startTestServer, type TestServer } from './support/server.js';
import { startMailbox, type Mailbox } from './support/mailbox.js';
import { until } from './support/wait.js';

let mailbox: Mailbox;
let server: TestServer;
let closed: TestServer;
let now = new Date();
const clock = { now: () => now };
const { lines: logged, stream: capture } = logLines<{ msg?: string; link?: string; email?: string }>();

const linkIn = (text: string) => /(http:\/\/localhost:\d+\/sign-in\/email#token=([A-Za-z0-9_-]+))/.exec(text);

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startTestServer({ SMTP_URL: mailbox.url, EMAIL_FROM: 'Marketplace <login@example.com>' }, { time: { clock } });
  // No SMTP_URL (development: links in the log), sign-up closed, failed sign-ins limited to 5 a minute.
  closed = await startTestServer(
    { SIGNUP: 'closed', LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '10000', RATE_LIMIT_FAILED_AUTH_PER_MINUTE: '5', RATE_LIMIT_KEY_PREFIX: `email-links-${randomBytes(4).toString('hex')}` },
    { logStream: capture },
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
  await closed?.close();
  await mailbox?.close();
});

const ask = (target: TestServer, email: unknown) => target.api.post('/v1/auth/email-link', { body: { email } });
const open = (target: TestServer, token: string, headers: Record<string, string> = {}) => target.api.post('/v1/auth/email-link/sign-in', { body: { token }, headers });
const me = (target: TestServer, cookie: string) => target.api.post('/graphql', { headers: { cookie, 'sec-fetch-site': 'same-origin' }, body: { query: '{ me { id email } }' } });

describe('a sign-in link', () => {
  it('is mailed through SMTP_URL, signs in once, creates the account on a first sign-in and proves the address', async () => {
    const asked = await ask(server, '  New.Person@Example.com ');
    expect(asked.status).toBe(202);
    const mail = await mailbox.mailTo('new.person@example.com');
    const [, link, token] = linkIn(mail.text)!;
    expect(link).toContain(`/sign-in/email#token=`);
    // Only the token's hash is kept, and the encrypted copy for the mail job is gone once sent.
    const rows = await server.sql.selectFrom('emailLinks').select(['hash', 'tokenEnc']).where('email', '=', 'new.person@example.com').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.hash).not.toBe(token);
    await until('the token copy to be forgotten', async () => (await server.sql.selectFrom('emailLinks').select('tokenEnc').where('email', '=', 'new.person@example.com').executeTakeFirst())?.tokenEnc === null);

    const opened = await open(server, token!);
    expect(opened.status).toBe(200);
    expect(opened.body.data).toMatchObject({ user: { email: 'new.person@example.com' }, created: true });
    const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
    expect((await me(server, cookie)).body.data.me.email).toBe('new.person@example.com');
    const user = await server.prisma.user.findUniqueOrThrow({ where: { email: 'new.person@example.com' } });
    expect(user.emailVerifiedAt).not.toBeNull();

    // Once only.
    const again = await open(server, token!);
    expect(again.status).toBe(401);
    expect(again.body.error.message).toMatch(/invalid, already used or expired/);
  });

  it('signs in an existing account, and does not work after 15 minutes', async () => {
    const bob = await server.createUser('bob-link@example.com');
    expect((await ask(server, 'bob-link@example.com')).status).toBe(202);
    const token = linkIn((await mailbox.mailTo('bob-link@example.com')).text)![2]!;
    const opened = await open(server, token);
    expect(opened.body.data).toMatchObject({ user: { id: bob.id }, created: false });

    expect((await ask(server, 'bob-link@example.com')).status).toBe(202);
    const late = linkIn((await mailbox.mailTo('bob-link@example.com', 2)).text)![2]!;
    now = new Date(now.getTime() + 15 * 60_000 + 1_000);
    const expired = await open(server, late);
    expect(expired.status).toBe(401);
  });

  it('answers 400 naming the field for what is not an address', async () => {
    const bad = await ask(server, 'not-an-address');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_INPUT');
    expect(bad.body.error.message).toMatch(/email/);
    const noToken = await server.api.post('/v1/auth/email-link/sign-in', { body: {} });
    expect(noToken.status).toBe(400);
    expect(noToken.body.error.field).toBe('token');
    expect((await open(server, 'short')).status).toBe(401);
  });

  it('is limited per address and per client address, by the clock', async () => {
    for (let i = 0; i < 5; i++) expect((await ask(server, 'flood@example.com')).status).toBe(202);
    const sixth = await ask(server, 'flood@example.com');
    expect(sixth.status).toBe(429);
    expect(sixth.body.error.code).toBe('RATE_LIMITED');
    // Up to 20 requests of one client address in 15 minutes, whatever the addresses (6 made above).
    let status = 0;
    let sent = 0;
    for (; sent < 30 && status !== 429; sent++) status = (await ask(server, `spray${sent}@example.com`)).status;
    expect(status).toBe(429);
    expect(sent).toBeLessThanOrEqual(20);
    now = new Date(now.getTime() + 15 * 60_000 + 1_000);
    expect((await ask(server, 'flood@example.com')).status).toBe(202);
  });
});

describe('with SIGNUP=closed and no SMTP_URL (development)', () => {
  it('answers 202 for any address, prints the link of an existing account in the log, and makes no account', async () => {
    const ada = await closed.createUser('ada-closed@example.com');
    const known = await ask(closed, 'ada-closed@example.com');
    const unknown = await ask(closed, 'stranger@example.com');
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(known.body).toEqual(unknown.body);
    expect(known.body.data.delivery).toBe('log');
    const line = await until('the link in the log', () => logged.find((l) => l.email === 'ada-closed@example.com' && l.link));
    expect(logged.some((l) => l.email === 'stranger@example.com')).toBe(false);
    const opened = await open(closed, linkIn(line.link!)![2]!);
    expect(opened.body.data.user.id).toBe(ada.id);
    expect(await closed.prisma.user.count({ where: { email: 'stranger@example.com' } })).toBe(0);
    // Sign-up in the dashboard is closed too.
    expect((await closed.api.get('/v1/auth/options')).body.data).toEqual({ signup: 'closed', emailLinks: 'log' });
    const signUp = await closed.api.post('/v1/auth/sign-up/options', { body: { name: 'X', email: 'x@example.com' } });
    expect(signUp.status).toBe(403);
  });

  it('throttles guessing links: after 5 wrong tokens a minute, even a right one is refused 429', async () => {
    await closed.createUser('guess-target@example.com');
    expect((await ask(closed, 'guess-target@example.com')).status).toBe(202);
    const line = await until('the link in the log', () => logged.find((l) => l.email === 'guess-target@example.com' && l.link));
    const right = linkIn(line.link!)![2]!;
    // The earlier test used one attempt of this address's budget.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await open(closed, randomBytes(32).toString('base64url'))).status);
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
    const refused = await open(closed, right);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
