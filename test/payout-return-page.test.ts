// The link POST /v1/billing/connect answers leads to a page that exists: the dashboard's payouts page
// (the simulated provider links straight to it, as the processor's onboarding does when it finishes).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildWeb } from '../scripts/build-web.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
beforeAll(async () => {
  await buildWeb();
  server = await startTestServer();
}, 60_000);
afterAll(() => server?.close());

it('opens the dashboard page the onboarding link points at', async () => {
  const owner = await server.createUser();
  const connect = await server.api.post('/v1/billing/connect', { key: owner.apiKey });
  expect(connect.status).toBe(200);
  const url = new URL(connect.body.url);
  expect(url.origin).toBe(new URL(server.url.replace('127.0.0.1', 'localhost')).origin);
  expect(url.pathname).toBe('/billing/payouts');
  for (const search of [url.search, '?onboarding=refresh&x=<script>']) {
    const page = await fetch(new URL(`/billing/payouts${search}`, server.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const text = await page.text();
    // The dashboard's page (its script shows where onboarding stands); nothing of the query is echoed.
    expect(text).toContain('<div id="root">');
    expect(text).not.toContain('<script>');
  }
});
