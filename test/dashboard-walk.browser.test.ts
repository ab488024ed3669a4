// The dashboard as a newcomer meets it, at desktop (1280) and phone (390) width, each page checked with
// axe-core and for sideways scrolling: the frame in the HTML before any script, Discover (what the
// marketplace is, one search box, filters as chips with counts, "List your agent", "New" cards), an
// agent's page signed out (its fields read-only, a sign-in call to action), the task form (dollars,
// expiry in words), a running task (its progress and next retry, the owner's moves for a requester who
// owns the agent), a finished one (no preset rating, the evidence hash behind a disclosure) and the owner
// console in its sections. UPDATE_SCREENSHOTS=1 writes the pictures into docs/screenshots.
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { browserSuite, pageWalk, WIDTHS } from './support/browser.js';
import { callBack, startTestAgent, type TestAgent } from './support/agent.js';
import { projectRoot } from './support/processes.js';
import { until } from './support/wait.js';

const suite = browserSuite('dashboard-walk.browser.test.ts', { test });
const SHOTS = path.join(projectRoot, process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : 'test-artifacts/pages');

let server: TestServer;
let working: TestAgent;
let failing: TestAgent;
let requester: { id: string; apiKey: string };
let owner: { id: string; apiKey: string };
let runningTaskId: string;
let finishedTaskId: string;
let ownAgentId: string;

const { open, check } = pageWalk(suite, { name: 'walk', shots: SHOTS });

suite.describe('the dashboard walked through', () => {
  test.beforeAll(async ({ server: s }) => {
    server = s;
    working = await startTestAgent();
    failing = await startTestAgent();
    requester = await server.createUser('walker@example.com');
    owner = await server.createUser('lab@example.com', 'Ada Lab');
    const agent = async (key: string, body: Record<string, unknown>) => {
      const res = await server.api.post('/v1/agents', { key, body });
      expect(res.status).toBe(201);
      return res.body.data as { id: string };
    };
    const translator = await agent(owner.apiKey, {
      name: 'French Translator',
      endpoint: working.url,
      description: 'Translates English text into natural French',
      capabilities: ['translation', 'french'],
      protocols: ['http'],
      categories: ['language'],
      priceCents: 250,
      inputSchema: JSON.stringify({ type: 'object', required: ['text'], properties: { text: { type: 'string', title: 'Text to translate' }, tone: { type: 'string', enum: ['formal', 'casual'] } } }),
    });
    await agent(owner.apiKey, { name: 'Invoice Reader', endpoint: working.url, description: 'Reads invoices into JSON', capabilities: ['ocr', 'extraction'], protocols: ['http'], categories: ['documents'] });
    // The requester owns this one too: on its tasks they see both sides' moves.
    failing.respondWith([500], { 'retry-after': '1800' });
    ownAgentId = (await agent(requester.apiKey, { name: 'Home Summarizer', endpoint: failing.url, description: 'Summarizes documents', capabilities: ['summarization'], protocols: ['http'] })).id;

    const running = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Summarize the minutes', description: 'Two lines', agentId: ownAgentId } });
    expect(running.status, JSON.stringify(running.body)).toBe(201);
    runningTaskId = running.body.data.id;
    await failing.waitFor(1);
    await until('the failed attempt is recorded', async () => (await server.prisma.delivery.count({ where: { taskId: runningTaskId, nextAttemptAt: { not: null } } })) === 1);

    const finished = await server.api.post('/v1/tasks', { key: owner.apiKey, body: { title: 'Say hello', description: 'In French', agentId: translator.id, input: { text: 'hello' } } });
    finishedTaskId = finished.body.data.id;
    // The card hold, confirmed as the processor's client library would.
    const confirmed = await server.api.graphql(
      'mutation ($input: SimulateCardConfirmationInput!) { simulateCardConfirmation(input: $input) { status } }',
      { input: { clientSecret: finished.body.clientSecret } },
      owner.apiKey,
    );
    expect(confirmed.errors).toBeUndefined();
    const [delivery] = await working.waitFor(1);
    expect((await callBack(delivery!, { result: { text: 'Bonjour' } })).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await working?.close();
    await failing?.close();
  });

  it('shows its frame in the HTML, before any script runs', async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    expect(html).toContain('class="top"');
    expect(html).toMatch(/role="status"[^>]*aria-label="Loading the dashboard"/);
    expect(html).toContain('href="/my/agents"');
  });

  for (const { name, viewport } of WIDTHS) {
    const suffix = name === 'desktop' ? '' : '-phone';

    it(`Discover says what the marketplace is and offers one box and filter chips (${name})`, async () => {
      const page = await open(viewport);
      await page.goto(`${server.url}/`);
      await page.getByRole('heading', { level: 1, name: 'Find an agent for the job' }).waitFor();
      await page.getByText(/A marketplace where software agents take tasks/).waitFor();
      await page.getByRole('link', { name: 'List your agent' }).waitFor();
      expect(await page.getByRole('searchbox').count()).toBe(1);
      // Chips with counts, no empty filter boxes.
      const capabilities = page.getByRole('group', { name: 'Capabilities' });
      await capabilities.getByRole('button', { name: 'translation, 1 agent' }).waitFor();
      expect(await page.locator('form[role="search"] input:not([type="search"])').count()).toBe(0);
      // New agents say so instead of a row of zeros.
      const card = page.locator('.card').filter({ has: page.getByRole('link', { name: 'Invoice Reader' }) });
      await card.getByText('New', { exact: true }).waitFor();
      expect(await card.textContent()).not.toMatch(/0 ok|Tasks done0/);
      // Search as you type: a word's start finds the agent.
      await page.getByRole('searchbox').pressSequentially('invo');
      await page.waitForURL(/\?q=invo$/);
      await until('the prefix finds the agent', async () => (await page.locator('.card h2').allTextContents()).join() === 'Invoice Reader');
      await page.getByRole('searchbox').fill('');
      await until('all agents again', async () => (await page.locator('.card').count()) === 3);
      await check(page, `discover${suffix}`);
      await page.context().close();
    }, 60_000);

    it(`an agent's page, signed out, lists its fields read-only and asks to sign in (${name})`, async () => {
      const page = await open(viewport);
      await page.goto(`${server.url}/agents/french-translator`);
      await page.getByRole('heading', { level: 1, name: 'French Translator' }).waitFor();
      const fields = page.getByRole('list', { name: 'Fields of the task form' });
      await fields.getByText('Text to translate').waitFor();
      await fields.getByText(/one of: formal, casual/).waitFor();
      await page.getByRole('link', { name: 'Sign in to send a task' }).waitFor();
      expect(await page.getByRole('textbox').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Send task' }).count()).toBe(0);
      // Times in words, the exact time on hover.
      const listed = page.locator('.byline time');
      expect(await listed.textContent()).toMatch(/now|second|minute/);
      expect(await listed.getAttribute('title')).toMatch(/\d{4}/);
      await check(page, `agent-public${suffix}`);
      await page.context().close();
    }, 60_000);

    it(`the task form asks for dollars and an expiry in words (${name})`, async () => {
      const page = await open(viewport, requester.apiKey);
      await page.goto(`${server.url}/agents/french-translator`);
      await page.getByLabel('Title').waitFor();
      expect(await page.getByLabel(/Most you will pay \(\$\)/).inputValue()).toBe('2.5');
      const expiry = page.getByLabel(/Give up after/);
      expect(await expiry.locator('option:checked').textContent()).toBe('1 hour');
      expect(await expiry.locator('option').allTextContents()).toEqual(expect.arrayContaining(['15 minutes', '1 day', '1 week']));
      expect(await page.locator('.task-form').getByText(/\((cents|minutes)\)/).count()).toBe(0);
      await check(page, `task-form${suffix}`);
      await page.context().close();
    }, 60_000);

    it(`a running task shows its progress, its next retry and, to a requester who owns the agent, the owner's moves (${name})`, async () => {
      const page = await open(viewport, requester.apiKey);
      await page.goto(`${server.url}/tasks/${runningTaskId}`);
      const progress = page.getByRole('list', { name: 'Progress' });
      await progress.locator('[aria-current="step"]').getByText('Sent to the agent').waitFor();
      await page.getByTestId('next-retry').getByText(/attempt 1 failed; next try in \d+ minutes/).waitFor();
      await page.getByRole('heading', { name: 'Work on this task' }).waitFor();
      await page.getByRole('button', { name: 'Cancel task' }).waitFor();
      // Its state has a look of its own.
      expect(await page.locator('.status-line .badge').getAttribute('class')).toContain('status-matched');
      await check(page, `task-running${suffix}`);
      await page.context().close();
    }, 60_000);

    it(`a finished task has no preset rating and explains its evidence hash (${name})`, async () => {
      const page = await open(viewport, owner.apiKey);
      await page.goto(`${server.url}/tasks/${finishedTaskId}`);
      await page.locator('.status-line').getByText('completed').waitFor();
      expect(await page.getByLabel('Rating').inputValue()).toBe('');
      expect(await page.getByRole('button', { name: 'Rate' }).isDisabled()).toBe(true);
      const evidence = page.locator('details.evidence');
      expect(await evidence.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
      await evidence.getByText('Evidence fingerprint').click();
      await evidence.getByText(/SHA-256 fingerprint of the result/).waitFor();
      expect(await page.locator('.progress').count()).toBe(0);
      await check(page, `task${suffix}`);
      await page.context().close();
    }, 60_000);

    it(`the owner console is in sections with its charts (${name})`, async () => {
      const page = await open(viewport, requester.apiKey);
      await page.goto(`${server.url}/my/agents/${ownAgentId}`);
      await page.getByRole('heading', { level: 1, name: 'Home Summarizer' }).waitFor();
      for (const section of ['Profile', 'Endpoint and signing', 'Limits', 'Input form', 'Deliveries']) {
        await page.getByRole('region', { name: section, exact: true }).waitFor();
      }
      await page.getByRole('navigation', { name: 'Sections of the console' }).getByRole('link', { name: 'Deliveries' }).waitFor();
      const deliveries = page.getByRole('region', { name: 'Deliveries', exact: true });
      await deliveries.locator('svg').first().waitFor();
      await deliveries.locator('td', { hasText: /^500$/ }).first().waitFor();
      await page.getByText(/needs a webhook secret/).waitFor();
      await check(page, `my-agent${suffix}`);
      await page.context().close();
    }, 60_000);
  }

  it('left no page errors', () => {
    expect(suite.pageErrors).toEqual([]);
  });
});
