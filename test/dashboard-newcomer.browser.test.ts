// The dashboard as a newcomer's second look found it (issue 44), at desktop (1280) and phone (390) width,
// each page checked with axe-core and for sideways scrolling: the consent page names the app before
// sign-in and lets the person narrow the scopes (the token holds only those left); the public sign-in
// page shows no server command; a free agent's page and its field list read right; /account draws each
// scope's box beside its label; "My tasks" names the agent, the payment and the time taken; a task's
// timeline is in causal order (the attempt before the move its answer caused) with the time between
// steps; /welcome says what to do next; a new agent is made from a form that puts what is needed first,
// gets its webhook secret once, stays inactive until a test delivery (signed with that secret) is
// answered 2xx, and only then goes live; an agent with no delivery yet reads health "unknown".
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { scopes } from '../src/auth/scopes.js';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { browserSuite, pageWalk, WIDTHS } from './support/browser.js';
import { callBack, startTestAgent, type TestAgent } from './support/agent.js';
import { projectRoot } from './support/processes.js';
import { until } from './support/wait.js';

const suite = browserSuite('dashboard-newcomer.browser.test.ts', { test });
const SHOTS = path.join(projectRoot, 'test-artifacts/pages');
const REDIRECT = 'http://127.0.0.1:7777/callback';

let server: TestServer;
let endpoint: TestAgent;
let newcomer: { id: string; apiKey: string };
let freeAgentSlug: string;
let quietAgentId: string;
let finishedTaskId: string;
let clientId: string;

const { open, check } = pageWalk(suite, { name: 'newcomer', shots: SHOTS });

const text = async (page: Page, selector: string) => ((await page.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ');

function consentUrl(challenge: string): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'tasks:read tasks:write billing',
    state: 'walk',
  });
  return `${server.url}/oauth/authorize?${query}`;
}

suite.describe("a newcomer's second look", () => {
  test.beforeAll(async ({ server: s }) => {
    server = s;
    endpoint = await startTestAgent();
    newcomer = await server.createUser('nia@example.com', 'Nia New');
    const other = await server.createUser('lab@example.com', 'Ada Lab');
    const agent = async (key: string, body: Record<string, unknown>) => {
      const res = await server.api.post('/v1/agents', { key, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data as { id: string; slug: string };
    };
    freeAgentSlug = (
      await agent(other.apiKey, {
        name: 'Free Shouter',
        endpoint: endpoint.url,
        description: 'Upper-cases text',
        capabilities: ['uppercase'],
        inputSchema: JSON.stringify({ type: 'object', required: ['text'], properties: { text: { type: 'string', title: 'Text' } } }),
      })
    ).slug;
    quietAgentId = (await agent(newcomer.apiKey, { name: 'Quiet Agent', endpoint: endpoint.url, description: 'Never asked yet', capabilities: ['quiet'] })).id;

    // A task the newcomer sends to an agent of their own: they see both the moves and the attempts.
    const echo = await agent(newcomer.apiKey, { name: 'Echo Agent', endpoint: endpoint.url, description: 'Echoes', capabilities: ['echo'] });
    endpoint.onDelivery(async (d) => {
      if (d.body.taskToken) await callBack(d, { result: { echo: d.body.input } });
    });
    const task = await server.api.post('/v1/tasks', { key: newcomer.apiKey, body: { title: 'Echo this', description: 'Back to me', agentId: echo.id, input: { text: 'hi' } } });
    expect(task.status, JSON.stringify(task.body)).toBe(201);
    finishedTaskId = task.body.data.id;
    await until('the task completes', async () => (await server.api.get(`/v1/tasks/${finishedTaskId}`, { key: newcomer.apiKey })).body.data.status === 'completed');
    endpoint.onDelivery(null);

    const registered = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Walk Host', redirect_uris: [REDIRECT] }),
    });
    clientId = ((await registered.json()) as { client_id: string }).client_id;
  }, 180_000);

  afterAll(async () => {
    await endpoint?.close();
  });

  for (const { name, viewport } of WIDTHS) {
    it(`public pages: the consent page names the app before sign-in, sign-in shows no server command, a free agent reads right (${name})`, async () => {
      const page = await open(viewport);
      await page.goto(consentUrl('x'.repeat(43)));
      await expect.poll(() => page.getByRole('heading', { name: 'Connect Walk Host?' }).isVisible()).toBe(true);
      expect(await page.locator('#main').getByRole('link', { name: 'Sign in' }).getAttribute('href')).toMatch(/^\/sign-in\?next=%2Foauth%2Fauthorize/);
      expect(await page.getByRole('checkbox').count()).toBe(0);
      await check(page, `consent-signed-out-${name}`);

      await page.goto(`${server.url}/sign-in`);
      await page.getByLabel('API key').waitFor();
      expect(await text(page, 'body')).not.toMatch(/npm run|user create|cli/);
      await check(page, `sign-in-${name}`);

      await page.goto(`${server.url}/agents/${freeAgentSlug}`);
      await page.getByText('Sign in to send this agent a task.').waitFor();
      const cta = await text(page, '.sign-in-cta');
      expect(cta).toContain('Its tasks are free.');
      expect(cta).not.toContain('You pay Free');
      expect(await text(page, '.field-list li')).toBe('Text · text · required');
      await check(page, `agent-free-${name}`);
      await page.context().close();
    }, 120_000);

    it(`signed in: scope boxes beside their labels, consent narrowed, My tasks, the timeline, /welcome (${name})`, async () => {
      const page = await open(viewport, newcomer.apiKey);

      await page.goto(`${server.url}/account`);
      const boxes = page.locator('#api-keys ~ form fieldset input[type=checkbox]');
      await boxes.first().waitFor();
      expect(await boxes.count()).toBe(scopes.length);
      for (let i = 0; i < scopes.length; i++) {
        const box = (await boxes.nth(i).boundingBox())!;
        const words = (await boxes.nth(i).locator('xpath=following-sibling::span').boundingBox())!;
        expect(box.width, 'a checkbox is drawn at its own size').toBeLessThan(40);
        expect(words.x, 'its label to its right').toBeGreaterThan(box.x + box.width);
        expect(Math.abs(words.y - box.y), 'on the same line').toBeLessThan(20);
      }
      await check(page, `account-scopes-${name}`);

      // Consent, narrowed: billing unchecked; the code's token holds the other two.
      const verifier = randomBytes(32).toString('base64url');
      await page.route('http://127.0.0.1:7777/**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the app' }));
      await page.goto(consentUrl(createHash('sha256').update(verifier).digest('base64url')));
      await page.getByRole('checkbox', { name: /^billing / }).waitFor();
      await check(page, `consent-${name}`);
      await page.getByRole('checkbox', { name: /^billing / }).uncheck();
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL(/^http:\/\/127\.0\.0\.1:7777\/callback\?/);
      const code = new URL(page.url()).searchParams.get('code')!;
      const token = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: REDIRECT, code_verifier: verifier }),
      });
      expect(((await token.json()) as { scope: string }).scope.split(' ').sort()).toEqual(['tasks:read', 'tasks:write']);

      await page.goto(`${server.url}/tasks`);
      const row = page.locator('.task-row', { hasText: 'Echo this' });
      await row.waitFor();
      const rowText = (await row.textContent())!.replace(/\s+/g, ' ');
      expect(rowText).toContain('for Echo Agent');
      expect(rowText).toContain('Free');
      expect(rowText).toMatch(/took \d+(\.\d)? (ms|s|min)/);
      await check(page, `my-tasks-${name}`);

      await page.goto(`${server.url}/tasks/${finishedTaskId}`);
      await page.locator('.timeline li.tl-completed').waitFor();
      const steps = await page.locator('.timeline > li').evaluateAll((items) =>
        items.map((li) => ({ time: li.querySelector('time')?.textContent ?? '', text: li.textContent ?? '', attempt: li.classList.contains('tl-attempt') })),
      );
      expect(steps[0]!.time).not.toMatch(/^\+/);
      for (const step of steps.slice(1)) expect(step.time, step.text).toMatch(/^\+\d+(\.\d)? (ms|s|min|h|days)$/);
      const attempt = steps.findIndex((s) => s.attempt && s.text.includes('HTTP 200'));
      const delivered = steps.findIndex((s) => !s.attempt && s.text.includes('delivered the task to'));
      expect(attempt, JSON.stringify(steps.map((s) => s.text))).toBeGreaterThanOrEqual(0);
      expect(delivered).toBeGreaterThan(attempt);
      await check(page, `timeline-${name}`);

      await page.goto(`${server.url}/welcome`);
      await page.getByRole('heading', { name: 'Welcome, Nia New' }).waitFor();
      for (const next of ['Find an agent', 'List your own agent', 'Connect an MCP host', 'Make an API key']) {
        expect(await page.getByRole('heading', { name: next }).isVisible(), next).toBe(true);
      }
      await check(page, `welcome-${name}`);

      await page.goto(`${server.url}/my/agents/${quietAgentId}`);
      await page.getByText('Health: unknown.').waitFor();
      expect(await page.getByText('going through').count()).toBe(0);
      await page.context().close();
    }, 180_000);

    it(`a new agent: needed fields first, its secret once, a signed test delivery, then live (${name})`, async () => {
      const page = await open(viewport, newcomer.apiKey);
      await page.goto(`${server.url}/my/agents/new`);
      await page.getByRole('heading', { name: 'Needed now' }).waitFor();
      for (const label of ['Name', 'Endpoint URL', 'Description', 'Capabilities']) expect(await page.getByLabel(label, { exact: false }).first().isVisible(), label).toBe(true);
      expect(await page.getByLabel('Long description').isVisible(), 'what can wait is folded away').toBe(false);
      expect(await page.getByLabel('Status').count(), 'a new agent does not choose its status').toBe(0);
      await check(page, `new-agent-${name}`);

      const agentName = `Walk Agent ${name}`;
      await page.getByLabel('Name').fill(agentName);
      await page.getByLabel('Endpoint URL').fill(endpoint.url);
      await page.getByLabel('Capabilities').fill(`walk-${name}`);
      await page.getByRole('button', { name: 'Create agent' }).click();
      await page.getByRole('heading', { name: `Before ${agentName} goes live` }).waitFor();
      const secret = await page.getByLabel(/Webhook secret: shown only now/).inputValue();
      expect(secret.length).toBeGreaterThan(20);
      const mine = (await server.api.get('/v1/agents', { key: newcomer.apiKey })).body.data as Array<{ id: string; name: string; status: string }>;
      const made = mine.find((a) => a.name === agentName)!;
      expect(made.status, 'inactive until its test delivery').toBe('inactive');
      expect(await page.getByRole('button', { name: 'Go live' }).isDisabled()).toBe(true);
      await check(page, `go-live-${name}`);

      endpoint.secret = secret;
      const before = endpoint.received.length;
      await page.getByRole('button', { name: 'Send a test delivery' }).click();
      await page.getByText(/Your endpoint answered 200/).waitFor();
      expect(endpoint.received.length).toBe(before + 1);
      expect(endpoint.received.at(-1)!.signatureValid, 'the test delivery is signed with the secret shown').toBe(true);
      endpoint.secret = null;
      await page.getByRole('button', { name: 'Go live' }).click();
      await page.waitForURL(`${server.url}/my/agents/${made.id}`);
      expect((await server.api.get(`/v1/agents/${made.id}`, { key: newcomer.apiKey })).body.data.status).toBe('active');
      await page.context().close();
    }, 180_000);
  }

  it('no page threw', () => {
    expect(suite.pageErrors).toEqual([]);
  });
});
