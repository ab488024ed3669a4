// Accounts, keys and apps in a real browser (Debian's chromium through playwright-core):
// - a passkey sign-up, sign-out and sign-in, then an API key with one scope made on /account: one call
//   allowed, one refused 403 INSUFFICIENT_SCOPE, and after "Revoke" the next call 401;
// - the official MCP SDK client with its OAuth support connecting to /mcp from nothing but the URL:
//   discovery, registration, the consent page clicked in the browser, the token, tools/list, a refresh;
//   disconnecting the app on /account ends it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CDPSession, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { test } from './support/fixtures.js';
import { axeViolations, browserSuite } from './support/browser.js';

// The pages are at suite.site, which the OAuth metadata names too.
const suite = browserSuite('oauth.browser.test.ts', { test });

async function signedUpPage(email: string): Promise<{ page: Page; cdp: CDPSession }> {
  const { site } = suite;
  const { context, page } = await suite.newPage({ viewport: { width: 1100, height: 900 } });
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  await page.goto(`${site}/sign-up`);
  await page.getByLabel('Name').fill('Ada Keys');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Create account with a passkey' }).click();
  await page.waitForURL(`${site}/welcome`);
  await page.goto(`${site}/account`);
  return { page, cdp };
}

suite.describe('in a browser', () => {
  it('signs up, signs out, signs in, and makes, uses and revokes a key with one scope', async () => {
    const { server, site } = suite;
    const { page } = await signedUpPage('ada@example.com');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(`${site}/`);
    await page.goto(`${site}/sign-in`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${site}/tasks`);

    await page.goto(`${site}/account`);
    await expect.poll(() => page.getByRole('heading', { name: 'API keys' }).isVisible()).toBe(true);
    expect(await axeViolations(page), 'axe on /account').toEqual([]);
    await page.getByLabel("New key's name").fill('reader');
    await page.getByRole('checkbox', { name: /tasks:read/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('New API key');
    await expect.poll(() => shown.isVisible()).toBe(true);
    const key = await shown.inputValue();
    expect(key).toMatch(/^tmk_/);

    expect((await server.api.get('/v1/tasks', { key })).status).toBe(200);
    const refused = await server.api.post('/v1/agents', { key, body: { name: 'Nope', endpoint: 'https://example.com/hook' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', scope: 'agents:write' });

    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Revoke key reader' }).click();
    await expect.poll(() => page.getByText('Key “reader” revoked.').isVisible()).toBe(true);
    expect((await server.api.get('/v1/tasks', { key })).status).toBe(401);
    await page.context().close();
  });

  it('connects the MCP SDK client through OAuth, consent clicked in the browser, and ends it on disconnect', async () => {
    const { server, site } = suite;
    const { page } = await signedUpPage('host-user@example.com');

    // The app's redirect URI: a loopback listener, as a desktop MCP host runs.
    let gotCode: (code: string) => void = () => {};
    const codeArrived = new Promise<string>((resolve) => (gotCode = resolve));
    const callback = http.createServer((req, res) => {
      const code = new URL(req.url!, 'http://127.0.0.1').searchParams.get('code');
      res.end('You can close this window.');
      if (code) gotCode(code);
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    const redirectUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;

    const store: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string } = {};
    const provider: OAuthClientProvider = {
      get redirectUrl() {
        return redirectUrl;
      },
      get clientMetadata() {
        return { client_name: 'Browser Test Host', redirect_uris: [redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
      },
      clientInformation: () => store.client,
      saveClientInformation: (info) => void (store.client = info),
      tokens: () => store.tokens,
      saveTokens: (tokens) => void (store.tokens = tokens),
      // The user's browser opens the consent page; the test clicks Allow there.
      redirectToAuthorization: async (url) => {
        await page.goto(url.toString());
        await expect.poll(() => page.getByRole('heading', { name: /Connect Browser Test Host/ }).isVisible()).toBe(true);
        expect(await page.getByText('127.0.0.1:').first().isVisible()).toBe(true);
        expect(await axeViolations(page), 'axe on the consent page').toEqual([]);
        // The person narrows what the app may do: no key making, no billing.
        for (const scope of ['account', 'billing']) {
          const box = page.getByRole('checkbox', { name: new RegExp(`^${scope} `) });
          if (await box.count()) await box.uncheck();
        }
        await page.getByRole('button', { name: 'Allow' }).click();
      },
      saveCodeVerifier: (verifier) => void (store.verifier = verifier),
      codeVerifier: () => store.verifier!,
    };

    const mcpUrl = new URL('/mcp', site);
    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    const client = new Client({ name: 'browser-test-host', version: '1.0.0' });
    // No credentials yet: 401, discovery, registration, and the consent page.
    await expect(client.connect(first)).rejects.toThrow(/Unauthorized/);
    await first.finishAuth(await codeArrived);
    expect(store.tokens?.access_token).toMatch(/^tma_/);
    // Granted only what was left checked.
    const granted = store.tokens!.scope!.split(' ');
    expect(granted).toContain('tasks:write');
    expect(granted).not.toContain('account');
    expect(granted).not.toContain('billing');

    const connected = new Client({ name: 'browser-test-host', version: '1.0.0' });
    await connected.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    const tools = await connected.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('create_task');
    await connected.close();

    // A refresh: the SDK trades its refresh token for a new pair, and the new access token works.
    const before = store.tokens!;
    expect(await auth(provider, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
    expect(store.tokens!.access_token).not.toBe(before.access_token);
    expect(store.tokens!.refresh_token).not.toBe(before.refresh_token);
    const again = new Client({ name: 'browser-test-host', version: '1.0.0' });
    await again.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    expect((await again.listTools()).tools.length).toBeGreaterThan(0);

    // Disconnecting the app on /account ends its tokens at once (once the browser has finished its
    // redirect to the host's callback, or that navigation would cut this one short).
    await page.waitForURL((url) => url.pathname === '/callback');
    await page.goto(`${site}/account`);
    await page.getByRole('button', { name: 'Disconnect Browser Test Host' }).click();
    await expect.poll(() => page.getByText('Browser Test Host disconnected.').isVisible()).toBe(true);
    expect((await server.api.get('/v1/tasks', { key: store.tokens!.access_token })).status).toBe(401);
    provider.redirectToAuthorization = async () => {};
    await expect(again.listTools()).rejects.toThrow();
    await again.close().catch(() => {});
    callback.close();
    await page.context().close();
  }, 120_000);
});
