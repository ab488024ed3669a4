// What an attacker tries against signing in, in a real browser (Debian's chromium, a virtual WebAuthn
// authenticator) with mail on a real SMTP server started here:
// - a passkey sign-up naming someone else's address does not get that person: when the owner signs in by
//   the emailed link they get an account of their own, and the attacker's passkey never opens it;
// - a sign-in link of the attacker's own, sent to a victim's browser from another site, signs nobody in
//   without a click, and a signed-in victim is told as whom they are signed in and stays so.
import type { BrowserContext, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { testWithMailbox } from './support/fixtures.js';
import { browserSuite } from './support/browser.js';
import type { Mailbox } from './support/mailbox.js';

let mailbox: Mailbox;

const test = testWithMailbox();
const suite = browserSuite('accounts-hostile.browser.test.ts', { test });

async function newPage(withAuthenticator = false): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await suite.newPage();
  if (withAuthenticator) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
  }
  return { context, page };
}

// Asks for a link on the sign-in page, as its owner would, and reads it from the mail.
async function linkFor(page: Page, email: string): Promise<string> {
  const { site } = suite;
  const before = mailbox.countTo(email);
  await page.goto(`${site}/sign-in`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Email me a link' }).click();
  const mail = await mailbox.mailTo(email, before + 1);
  return /(http:\/\/localhost:\d+\/sign-in\/email#token=[A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
}

const whoIsSignedIn = (page: Page) =>
  page.evaluate(async () => {
    const res = await fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ me { id email name } }' }) });
    return ((await res.json()) as { data?: { me: { id: string; email: string; name: string | null } } | null }).data?.me ?? null;
  });

suite.describe('signing in against an attacker', () => {
  test.beforeAll(async ({ mailbox: m }) => {
    mailbox = m;
  });

  it("a passkey sign-up with the victim's address does not own the victim's account", async () => {
    const { server, site } = suite;
    const mallory = await newPage(true);
    await mallory.page.goto(`${site}/sign-up`);
    await mallory.page.getByLabel('Name').fill('Mallory');
    await mallory.page.getByLabel('Email').fill('victim@example.com');
    await mallory.page.getByRole('button', { name: 'Create account with a passkey' }).click();
    await mallory.page.waitForURL(`${site}/welcome`);
    await mallory.page.goto(`${site}/account`);
    // The account page says the address is only claimed, and offers to prove it.
    await expect.poll(() => mallory.page.getByText('Your address is not proven yet.', { exact: false }).isVisible()).toBe(true);
    await expect.poll(() => mallory.page.getByRole('button', { name: 'Email me a link to prove it' }).isVisible()).toBe(true);
    const claimed = await whoIsSignedIn(mallory.page);
    expect(claimed).toMatchObject({ email: 'victim@example.com', name: 'Mallory' });

    // The owner signs in by the emailed link, in their own browser.
    const victim = await newPage();
    const link = await linkFor(victim.page, 'victim@example.com');
    await victim.page.goto(link);
    await victim.page.getByRole('button', { name: 'Sign in as victim@example.com' }).click();
    await victim.page.waitForURL(`${site}/tasks`);
    const owner = await whoIsSignedIn(victim.page);
    expect(owner).toMatchObject({ email: 'victim@example.com', name: null });
    expect(owner!.id).not.toBe(claimed!.id);
    // The owner's account has no passkey of Mallory's, and its address is proven.
    expect(await server.sql.selectFrom('passkeys').select('id').where('userId', '=', owner!.id).execute()).toEqual([]);
    const row = await server.sql.selectFrom('users').select(['emailVerifiedAt', 'emailUnproven']).where('id', '=', owner!.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ emailVerifiedAt: expect.any(Date), emailUnproven: false });
    await victim.page.goto(`${site}/account`);
    await expect.poll(() => victim.page.getByRole('heading', { name: 'Passkeys' }).isVisible()).toBe(true);
    expect(await victim.page.getByText('Your address is not proven yet.', { exact: false }).count()).toBe(0);

    // Mallory's passkey signs in to Mallory's account, which no longer holds the address.
    await mallory.page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await mallory.page.waitForURL(`${site}/`);
    await mallory.page.goto(`${site}/sign-in`);
    await mallory.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await mallory.page.waitForURL(`${site}/tasks`);
    const after = await whoIsSignedIn(mallory.page);
    expect(after).toMatchObject({ id: claimed!.id, email: `${claimed!.id}@unproven.invalid`, name: 'Mallory' });
    await mallory.context.close();
    await victim.context.close();
  });

  it("an attacker's own link sent to a victim's browser signs nobody in without a click, and never silently replaces a session", async () => {
    const { server, site, pageErrors } = suite;
    // The attacker asks for a link to their own address.
    const attacker = await newPage();
    const link = await linkFor(attacker.page, 'attacker@example.com');
    await attacker.context.close();

    // A victim signed in (by a link of their own) is sent to the attacker's link from another site.
    const victim = await newPage();
    await victim.page.goto(await linkFor(victim.page, 'signed-in-victim@example.com'));
    await victim.page.getByRole('button', { name: 'Sign in as signed-in-victim@example.com' }).click();
    await victim.page.waitForURL(`${site}/tasks`);
    const before = await whoIsSignedIn(victim.page);
    await victim.page.goto(link, { referer: 'https://evil.example/' });
    await expect.poll(() => victim.page.getByText('You are signed in as signed-in-victim@example.com.').isVisible()).toBe(true);
    await expect.poll(() => victim.page.getByRole('button', { name: 'Continue as attacker@example.com' }).isVisible()).toBe(true);
    // The token left the address bar; the page has decided nothing by itself.
    expect(victim.page.url()).toBe(`${site}/sign-in/email`);
    expect(await whoIsSignedIn(victim.page)).toEqual(before);
    await victim.page.getByRole('button', { name: 'Stay signed in as signed-in-victim@example.com' }).click();
    await victim.page.waitForURL(`${site}/tasks`);
    expect(await whoIsSignedIn(victim.page)).toEqual(before);
    const unspent = await server.sql.selectFrom('emailLinks').select('usedAt').where('email', '=', 'attacker@example.com').execute();
    expect(unspent.every((l) => l.usedAt === null)).toBe(true);

    // A browser signed in to nobody: the page names the address and waits for the click.
    const stranger = await newPage();
    await stranger.page.goto(link, { referer: 'https://evil.example/' });
    await expect.poll(() => stranger.page.getByRole('button', { name: 'Sign in as attacker@example.com' }).isVisible()).toBe(true);
    expect(await whoIsSignedIn(stranger.page)).toBeNull();
    expect(await stranger.context.cookies(site)).toEqual([]);
    await stranger.context.close();
    await victim.context.close();
    expect(pageErrors).toEqual([]);
  });
});
