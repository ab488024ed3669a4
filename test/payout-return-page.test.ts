// The link POST /v1/billing/connect answers leads to a page that exists (the simulated provider links
// straight to the return page, as the processor's onboarding does when it finishes).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

it('opens the page the onboarding link points at', async () => {
  const owner = await server.createUser();
  const connect = await server.api.post('/v1/billing/connect', { key: owner.apiKey });
  expect(connect.status).toBe(200);
  const url = new URL(connect.body.url);
  expect(url.origin).toBe(new URL(server.url.replace('127.0.0.1', 'localhost')).origin);
  const page = await fetch(new URL(url.pathname + url.search, server.url));
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(await page.text()).toContain('Payout setup finished');
  const expired = await fetch(`${server.url}/billing/payouts?onboarding=refresh&x=<script>`);
  const text = await expired.text();
  expect(text).toContain('link expired');
  expect(text).not.toContain('<script>');
});
