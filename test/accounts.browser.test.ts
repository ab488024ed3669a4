// Accounts in a real browser (Debian's chromium through playwright-core) with a virtual WebAuthn
// authenticator (Chrome DevTools Protocol, WebAuthn domain): sign up with a passkey, sign out, sign in
// with the passkey (no email typed), add and remove a passkey, and see the sessions on /account. The
// pages pass axe, and the page keeps nothing in web storage: the session is an HttpOnly cookie.
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { test } from './support/fixtures.js';
import { axeViolations, browserSuite } from './support/browser.js';

const suite = browserSuite('accounts.browser.test.ts', { test });

async function newPage(): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession }> {
  const { context, page } = await suite.newPage({ viewport: { width: 1100, height: 820 }, failureShot: 'accounts' });
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  return { context, page, cdp };
}

// A platform authenticator holding discoverable credentials, that verifies its user (as a phone or laptop does).
async function addAuthenticator(cdp: CDPSession): Promise<string> {
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return authenticatorId;
}

async function accessible(page: Page, name: string): Promise<void> {
  expect(await axeViolations(page), `axe on ${name}`).toEqual([]);
}

suite.describe('accounts in a browser', () => {
  it('signs up with a passkey, signs out, signs in with it, and manages passkeys and sessions', async () => {
    const { server, site, pageErrors } = suite;
    const { context, page, cdp } = await newPage();
    const first = await addAuthenticator(cdp);

    await page.goto(`${site}/sign-up`);
    await page.getByLabel('Name').fill('Grace Passkey');
    await accessible(page, '/sign-up');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByRole('button', { name: 'Create account with a passkey' }).click();
    // The first page after sign-up says what to do next, each a link to where it is done.
    await page.waitForURL(`${site}/welcome`);
    await expect.poll(() => page.getByRole('heading', { name: 'Welcome, Grace Passkey' }).isVisible()).toBe(true);
    for (const next of ['Find an agent', 'List your own agent', 'Connect an MCP host', 'Make an API key']) {
      expect(await page.getByRole('heading', { name: next }).isVisible(), next).toBe(true);
    }
    expect(await page.getByText(`${site}/mcp`).isVisible()).toBe(true);
    await accessible(page, '/welcome');
    await page.getByRole('link', { name: 'API keys on your account' }).click();
    await page.waitForURL(`${site}/account#api-keys`);
    await expect.poll(() => page.getByRole('heading', { name: 'Passkeys' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('First passkey').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('This browser').isVisible()).toBe(true);
    await accessible(page, '/account');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId: first });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);

    // The session is an HttpOnly cookie; the page keeps nothing in web storage.
    const cookies = await context.cookies(site);
    expect(cookies.map((c) => ({ name: c.name, httpOnly: c.httpOnly, sameSite: c.sameSite }))).toEqual([{ name: 'tm_session', httpOnly: true, sameSite: 'Lax' }]);
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([0, 0, '']);

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(`${site}/`);
    expect(await context.cookies(site)).toEqual([]);
    await page.goto(`${site}/account`);
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in needed' }).isVisible()).toBe(true);

    // Sign in with the passkey: no email typed, the browser offers the site's passkey.
    await page.goto(`${site}/sign-in`);
    await expect.poll(() => page.getByRole('button', { name: 'Sign in with a passkey' }).isVisible()).toBe(true);
    await accessible(page, '/sign-in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${site}/tasks`);
    await expect.poll(() => page.getByRole('link', { name: 'grace@example.com' }).isVisible()).toBe(true);

    // A second device's passkey: another authenticator (the first already holds one for this account).
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: first });
    await addAuthenticator(cdp);
    await page.goto(`${site}/account`);
    await page.getByLabel("New passkey's name").fill('Phone');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect.poll(() => page.getByText('Passkey added.').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: /^Remove passkey/ }).count()).toBe(2);
    await page.getByRole('button', { name: 'Remove passkey First passkey' }).click();
    await expect.poll(() => page.getByRole('button', { name: /^Remove passkey/ }).count()).toBe(1);
    const left = await server.sql.selectFrom('passkeys').innerJoin('users', 'users.id', 'passkeys.userId').select('passkeys.name').where('users.email', '=', 'grace@example.com').execute();
    expect(left.map((p) => p.name)).toEqual(['Phone']);

    // Sessions: the sign-up's ended at sign-out; this one is listed; signing out everywhere ends it.
    await expect.poll(() => page.getByRole('button', { name: 'Sign out of this browser' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL(`${site}/sign-in`);
    expect(await context.cookies(site)).toEqual([]);

    // The new passkey signs in.
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${site}/tasks`);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
