// The link POST /v1/billing/connect answers leads to the dashboard's payouts page (the simulated
// provider links straight to it, as the processor's onboarding does when it finishes); that the service
// answers /billing/payouts with the dashboard is checked in dashboard-static.test.ts, and what the page
// shows in billing.browser.test.ts. (No build here: rebuilding dist/web would pull it from under the
// browser tests running beside this file.)
import { expect, it } from 'vitest';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let server: TestServer;
test.beforeAll(async ({ server: s }) => {
  server = s;
});

it('points the onboarding link at the dashboard page', async () => {
  const owner = await server.createUser();
  const connect = await server.api.post('/v1/billing/connect', { key: owner.apiKey });
  expect(connect.status).toBe(200);
  const url = new URL(connect.body.url);
  expect(url.origin).toBe(new URL(server.url.replace('127.0.0.1', 'localhost')).origin);
  expect(url.pathname).toBe('/billing/payouts');
  expect(url.searchParams.get('onboarding')).toBe('done');
});
