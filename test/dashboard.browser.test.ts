// The dashboard in a real browser (Debian's chromium, driven by playwright-core) against the running
// service and a loopback agent: a requester finds an agent despite a typo, fills the form made from
// its inputSchema and watches the task go live to completed; an owner edits an agent, rotates its
// secret and redelivers from the delivery log. Each page is saved to docs/screenshots/ for the README;
// a failing test leaves a screenshot in test-artifacts/.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { axeViolations, browserSuite, signInWithKey, tabTo } from './support/browser.js';
import { callBack, startTestAgent, type TestAgent } from './support/agent.js';
import { projectRoot } from './support/processes.js';
import { makeJobsDue, untilNoJobDue } from './support/jobs.js';
import { until } from './support/wait.js';

const suite = browserSuite('dashboard.browser.test.ts', { test });
// The README's pictures are refreshed on request (UPDATE_SCREENSHOTS=1); ordinary runs write them into the
// ignored artifacts folder so a test run leaves the tree unchanged.
// Only the pictures the README shows go to docs/screenshots.
const README_SHOTS = new Set(['sign-in', 'discover', 'agent-public', 'task', 'task-review', 'my-agents', 'my-agent', 'discover-phone', 'task-phone', 'not-found']);
const DOCS = path.join(projectRoot, 'docs/screenshots');
const PAGES = path.join(projectRoot, 'test-artifacts/pages');
const shotPath = (name: string) => path.join(process.env.UPDATE_SCREENSHOTS === '1' && README_SHOTS.has(name) ? DOCS : PAGES, `${name}.png`);
const DESKTOP = { width: 1100, height: 820 };
const PHONE = { width: 375, height: 740 };

// No sideways scrolling: the page is no wider than the viewport.
const overflowOf = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

const TRANSLATOR_SCHEMA = {
  type: 'object',
  required: ['text'],
  properties: {
    text: { type: 'string', title: 'Text to translate', minLength: 1 },
    tone: { type: 'string', title: 'Tone', enum: ['formal', 'casual'], default: 'formal' },
  },
};

let server: TestServer;
let translatorAgent: TestAgent;
let flakyAgent: TestAgent;
let requester: { id: string; apiKey: string };
let owner: { id: string; apiKey: string };
let translatorId: string;
let flakyId: string;
let codeReviewerId: string;
// Script errors and what the Content-Security-Policy blocked, on every page: each is a failure.
const { pageErrors } = suite;

// A failing test leaves a picture of the page in test-artifacts/<failureShot>.png.
async function newPage(viewport = DESKTOP, failureShot?: string): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await suite.newPage({ viewport, failureShot });
  // The dashboard asks before replacing a secret.
  page.on('dialog', (dialog) => void dialog.accept());
  return { context, page };
}

// Every page a test visits is checked with axe-core: no serious or critical violation.
async function accessible(page: Page, name: string): Promise<void> {
  expect(await axeViolations(page), `axe on ${name}`).toEqual([]);
}

// A picture for the README, of a page that passed the accessibility check.
async function shot(page: Page, name: string): Promise<void> {
  await accessible(page, name);
  await page.screenshot({ path: shotPath(name), fullPage: true });
}

const signIn = (page: Page, apiKey: string) => signInWithKey(page, server.url, apiKey);

suite.describe('dashboard in a browser', () => {
  test.beforeAll(async ({ server: s }) => {
    await mkdir(PAGES, { recursive: true });
    if (process.env.UPDATE_SCREENSHOTS === '1') await mkdir(DOCS, { recursive: true });
    server = s;
    translatorAgent = await startTestAgent();
    flakyAgent = await startTestAgent();
    requester = await server.createUser('requester@example.com');
    // Cards and agent pages name the owner.
    owner = await server.createUser('owner@example.com', 'Ada Lab');
    const create = (body: Record<string, unknown>) => server.api.post('/v1/agents', { key: owner.apiKey, body }).then((r) => {
      expect(r.status).toBe(201);
      return r.body.data;
    });
    translatorId = (
      await create({
        name: 'French Translator',
        endpoint: translatorAgent.url,
        description: 'Translates English text into natural French',
        // Markdown.
        longDescription: ['Short texts, emails and **product copy**, translated by a fine-tuned model.', '', '- Keeps your tone', '- See the [style guide](https://example.com/style)'].join('\n'),
        capabilities: ['translation', 'french'],
        protocols: ['http'],
        categories: ['language'],
        tags: ['nlp', 'french', 'translation'],
        priceCents: 250,
        version: '1.4.0',
        inputSchema: JSON.stringify(TRANSLATOR_SCHEMA),
      })
    ).id;
    flakyId = (
      await create({
        name: 'Flaky Summarizer',
        endpoint: flakyAgent.url,
        description: 'Summarizes long documents into a few sentences',
        capabilities: ['summarization'],
        protocols: ['http'],
        categories: ['language'],
        tags: ['nlp', 'summaries'],
        priceCents: 0,
      })
    ).id;
    codeReviewerId = (await create({ name: 'Code Reviewer', endpoint: translatorAgent.url, description: 'Reviews pull requests for bugs and style', capabilities: ['code-review'], protocols: ['http'], categories: ['software'], tags: ['code', 'review'], priceCents: 900 })).id;
    await create({
      name: 'Invoice Extractor',
      endpoint: translatorAgent.url,
      description: 'Reads invoices and returns their fields as JSON',
      // Markdown with what must never run on the page.
      longDescription: 'Returns **fields** as JSON.\n\n<script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2">\n\n[a link](javascript:window.pwned=3)',
      capabilities: ['extraction', 'ocr'],
      protocols: ['http'],
      categories: ['documents'],
      tags: ['pdf', 'finance'],
      priceCents: 0,
    });
  }, 120_000);

  afterAll(async () => {
    await translatorAgent?.close();
    await flakyAgent?.close();
  });

  it('a requester finds an agent with a typo, sends a task through its form and watches it complete live', async () => {
    const { context, page } = await newPage(DESKTOP, 'requester');

    // Before signing in: the agent page shows who offers it, its description, the fields its form asks
    // for, and how to call it from code.
    await page.goto(`${server.url}/agents/french-translator`);
    await page.getByRole('heading', { level: 1, name: 'French Translator' }).waitFor();
    await page.getByText('by Ada Lab').waitFor();
    const long = page.getByTestId('long-description');
    await long.locator('strong', { hasText: 'product copy' }).waitFor();
    expect(await long.getByRole('link', { name: 'style guide' }).getAttribute('rel')).toContain('noopener');
    // Signed out, the form's fields are listed read-only beside a call to sign in: nothing looks sendable.
    await page.getByRole('list', { name: 'Fields of the task form' }).getByText('Text to translate').waitFor();
    await page.getByRole('link', { name: 'Sign in to send a task' }).waitFor();
    expect(await page.getByLabel(/Text to translate/).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Send task' }).count()).toBe(0);
    const snippet = page.locator('pre.snippet');
    expect(await snippet.textContent()).toMatch(/curl -X POST http:\/\/[^ ]+\/v1\/tasks[\s\S]*"agentId": "agt_\w+"[\s\S]*"text": "Text to translate…"/);
    await page.getByRole('button', { name: 'GraphQL', exact: true }).click();
    expect(await snippet.textContent()).toContain('createTask(input: $input)');
    await page.getByRole('button', { name: 'MCP', exact: true }).click();
    expect(await snippet.textContent()).toMatch(/"url": "http:\/\/[^"]+\/mcp"[\s\S]*"name":"create_task"/);
    await page.locator('.record-grid, .note').first().waitFor();
    await shot(page, 'agent-public');

    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel('API key').waitFor();
    // A public page shows no server command.
    expect(await page.locator('body').textContent()).not.toMatch(/npm run|user create/);
    // No identity provider is configured, so there is no field for its access tokens.
    expect(await page.getByLabel(/Access token/).count()).toBe(0);
    await shot(page, 'sign-in');
    await signIn(page, requester.apiKey);

    // As-you-type search, with a typo.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Discover' }).click();
    await page.getByLabel('Search').pressSequentially('tranlsator');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'French Translator' }) });
    await card.waitFor();
    await page.waitForURL(/\?q=tranlsator$/);
    // A card: icon, owner, capabilities, trust with its counts, rating, tasks done, price.
    const cardText = await card.textContent();
    expect(cardText).toContain('$2.50');
    expect(cardText).toContain('by Ada Lab');
    // A new agent's card says so, instead of a row of zeros.
    expect(cardText).toMatch(/New.*No tasks yet/);
    expect(cardText).not.toContain('0 ok · 0 failed');
    await card.getByRole('list', { name: 'Capabilities' }).getByText('translation').waitFor();
    expect(await card.locator('.agent-icon').count()).toBe(1);
    await shot(page, 'discover');
    await page.getByRole('link', { name: 'French Translator' }).click();
    await page.getByRole('heading', { level: 1, name: 'French Translator' }).waitFor();
    // The new page's heading has the focus, so keyboard and screen reader users start there.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');

    // The form from inputSchema: leaving its required field empty shows the schema's error there.
    await page.getByLabel('Title').fill('Translate a greeting');
    await page.getByLabel('Description').fill('Into French, please');
    await page.getByRole('button', { name: 'Send task' }).click();
    const textField = page.locator('.form-group').filter({ has: page.getByLabel('Text to translate') });
    // In plain words, naming the field by its title.
    await textField.getByText(/^Text to translate (is required|must not be empty)\.$/).waitFor();
    expect(translatorAgent.received).toHaveLength(0);
    await shot(page, 'agent');

    await page.getByLabel('Text to translate').fill('Good morning');
    await page.getByRole('button', { name: 'Send task' }).click();
    await page.waitForURL(/\/tasks\/tsk_\w+$/);
    const taskId = page.url().split('/').pop()!;

    // The card hold waits for the requester: the simulated processor's test form confirms it.
    await page.getByRole('button', { name: 'Confirm test payment' }).click();
    // The card hold was confirmed (simulated processor) so the task reached the agent; it now runs.
    const [delivery] = await translatorAgent.waitFor(1);
    expect(delivery!.body).toMatchObject({ taskId, title: 'Translate a greeting', input: { text: 'Good morning', tone: 'formal' } });
    const status = page.locator('.status-line');
    await status.getByText('in progress').waitFor();
    const created = await server.prisma.idempotencyRecord.findMany({ where: { userId: requester.id } });
    expect(created).toHaveLength(1);

    // The agent calls back; the page follows over the WebSocket without a reload.
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    expect((await callBack(delivery!, { result: { text: 'Bonjour' } })).status).toBe(200);
    await status.getByText('completed').waitFor();
    expect(await page.getByTestId('task-result').textContent()).toContain('Bonjour');
    expect(navigations).toEqual([]);
    // Names, not ids: the agent is named and linked; the payment reads in words; the timeline says
    // who moved the task and when, and grew live.
    await page.locator('.task-summary').getByRole('link', { name: 'French Translator' }).waitFor();
    // The card is the one the hold stands on (the simulated processor's Visa), by brand and last four only.
    expect(await page.getByTestId('task-payment').textContent()).toBe('Payment: $2.50 paid by Visa ••4242');
    const timeline = page.locator('.timeline');
    await timeline.getByText('You created the task.').waitFor();
    await timeline.getByText(/matched the task to French Translator/).waitFor();
    await timeline.getByText(/French Translator completed the task/).waitFor();
    // The payment's steps, each at its time, among the moves: the hold before the match it allowed, the
    // capture after the completion (both arrived live: the page was not reloaded).
    await timeline.getByText('The service captured $2.50 from Visa ••4242.').waitFor();
    const steps = await timeline.locator('li').allTextContents();
    const stepAt = (pattern: RegExp) => steps.findIndex((text) => pattern.test(text));
    expect(stepAt(/held \$2\.50 on Visa ••4242\./)).toBeGreaterThan(-1);
    expect(stepAt(/held \$2\.50 on Visa/)).toBeLessThan(stepAt(/matched the task to/));
    expect(stepAt(/captured \$2\.50 from Visa/)).toBeGreaterThan(stepAt(/completed the task/));
    expect(await timeline.locator('li.tl-payment time').count()).toBe(2);
    // The requester does not see how the agent's endpoint answered.
    expect(await timeline.locator('.tl-attempt').count()).toBe(0);
    // The service's receipt arrived with the move to completed: it downloads as a file that verifies.
    const receiptSection = page.getByRole('region', { name: 'Receipt' });
    await receiptSection.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), receiptSection.getByRole('button', { name: 'Download receipt' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^receipt-.+\.jws$/);
    const saved: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) saved.push(chunk as Buffer);
    const verified = await fetch(`${server.url}/v1/receipts/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ receipt: Buffer.concat(saved).toString('utf8') }),
    }).then((r) => r.json() as Promise<{ data: { valid: boolean } }>);
    expect(verified.data.valid).toBe(true);
    expect(await page.locator('body').textContent()).not.toMatch(/agt_\w{6}/);

    await page.getByLabel('Rating').selectOption('5');
    await page.getByRole('button', { name: 'Rate' }).click();
    await page.getByText('You rated this task 5 / 5.').waitFor();
    await shot(page, 'task');

    // The agent page's track record now counts the task. Its figures are stored by the agent.figures
    // recount, which the completion queued for a moment later: made due and waited for, then the page
    // is read once. (Its text is no signal: the per-day figures are counted live.)
    const recount = { name: 'agent.figures', payload: { agentId: translatorId } };
    await makeJobsDue(server.prisma, recount);
    await untilNoJobDue(server.prisma, recount);
    await page.goto(`${server.url}/agents/french-translator`);
    await page.getByRole('heading', { level: 1, name: 'French Translator' }).waitFor();
    // Per day (14 bars, today's finished task), all time, success rate, p50/p95.
    expect(await page.locator('.record-grid svg[role="img"]').count()).toBe(4);
    // The figures agree: per day, all time and the headline count the same task.
    await page.getByText('Tasks per day, last 14 days: 1 finished (1 completed, 0 failed)').waitFor();
    await page.getByText('All time: 1 finished (1 completed, 0 failed)').waitFor();
    expect(await page.locator('.facts.headline').textContent()).toContain('Tasks completed1');
    await shot(page, 'agent-record');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My tasks' }).click();
    await page.getByLabel('Status').selectOption('completed');
    await page.getByRole('link', { name: 'Translate a greeting' }).waitFor();
    await shot(page, 'my-tasks');
    await context.close();

    // Phone width: the discover page stays usable (no sideways scrolling).
    const phone = await newPage(PHONE);
    await phone.page.goto(`${server.url}/?q=nlp`);
    await phone.page.getByRole('link', { name: 'French Translator' }).waitFor();
    expect(await overflowOf(phone.page)).toBe(0);
    await shot(phone.page, 'discover-phone');
    // The agent page, with its code snippets (they scroll inside their box).
    await phone.page.goto(`${server.url}/agents/french-translator`);
    await phone.page.getByRole('heading', { level: 1, name: 'French Translator' }).waitFor();
    await phone.page.locator('.record-grid').waitFor();
    expect(await overflowOf(phone.page)).toBe(0);
    await accessible(phone.page, 'agent at phone width');
    // The task page too, with its result and details.
    await signIn(phone.page, requester.apiKey);
    await phone.page.goto(`${server.url}/tasks/${taskId}`);
    await phone.page.locator('.status-line').getByText('completed').waitFor();
    await phone.page.locator('.timeline').getByText('The service captured $2.50 from Visa ••4242.').waitFor();
    expect(await overflowOf(phone.page)).toBe(0);
    await shot(phone.page, 'task-phone');
    await phone.context.close();
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('a requester cancels a task that waits for its card payment, and sees it at once', async () => {
    const created = await server.api.post('/v1/tasks', {
      key: requester.apiKey,
      body: { title: 'Review my patch', description: 'Small diff', agentId: codeReviewerId, input: {} },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.status).toBe('pending');
    const { context, page } = await newPage(DESKTOP, 'cancel');
    await signIn(page, requester.apiKey);
    await page.goto(`${server.url}/tasks/${created.body.data.id}`);
    const status = page.locator('.status-line');
    await status.getByText('pending').waitFor();
    expect(await page.getByTestId('task-payment').textContent()).toBe('Payment: $9.00 to be held on card, waiting for confirmation');
    // Cancelling cannot be undone, so the page asks first (the test's dialog handler says yes).
    const asked: string[] = [];
    page.on('dialog', (dialog) => asked.push(dialog.message()));
    await page.getByRole('button', { name: 'Cancel task' }).click();
    await status.getByText('cancelled').waitFor();
    expect(asked).toEqual([expect.stringMatching(/^Cancel this task\?/)]);
    await page.locator('.timeline').getByText(/You cancelled the task/).waitFor();
    // No hold was ever placed, so there is no payment step and nothing to release.
    expect(await page.getByTestId('task-payment').textContent()).toBe('Payment: $9.00 never held, nothing charged');
    expect(await page.locator('.timeline li.tl-payment').count()).toBe(0);
    // Nothing is left to do on a cancelled task: no empty actions.
    expect(await page.getByRole('button', { name: 'Cancel task' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Actions' }).count()).toBe(0);
    expect((await server.api.get(`/v1/tasks/${created.body.data.id}`, { key: requester.apiKey })).body.data.status).toBe('cancelled');
    await accessible(page, 'cancelled task');
    await context.close();
  }, 120_000);

  it('an owner sees the API validation by the field, rotates the webhook secret and redelivers from the log', async () => {
    // The agent fails its first delivery and asks not to be retried soon, so only a redelivery can reach it.
    flakyAgent.respondWith([500, 200], { 'retry-after': '1800' });
    const task = await server.api.post('/v1/tasks', {
      key: requester.apiKey,
      body: { title: 'Summarize the report', description: 'Two sentences', agentId: flakyId, expiresInMinutes: 240, input: { url: 'https://example.com/report.pdf' } },
    });
    expect(task.status).toBe(201);
    await flakyAgent.waitFor(1);
    await until('the failed attempt is recorded', async () => (await server.prisma.deliveryAttempt.count()) >= 1);

    const { context, page } = await newPage(DESKTOP, 'owner');
    await signIn(page, owner.apiKey);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My agents' }).click();
    await page.locator('.agent-rows').getByRole('link', { name: 'Flaky Summarizer' }).waitFor();
    // The failed delivery shows as a banner and as an operational event.
    await page.getByRole('alert').filter({ hasText: 'Flaky Summarizer: endpoint failing' }).waitFor();
    // In words, linked to the agent.
    const event = page.locator('li[data-event="endpoint.failing"]').first();
    await event.getByText(/deliveries to its endpoint keep failing/).waitFor();
    await event.getByRole('link', { name: 'Flaky Summarizer' }).waitFor();
    // Delivery health at a glance: the failed attempt shows.
    const flakyRow = page.locator('.agent-row').filter({ has: page.getByRole('link', { name: 'Flaky Summarizer' }) });
    await flakyRow.getByText(/Deliveries: 0 % answered · median \d+ ms · 1 attempt$/).waitFor();
    // Tasks for my agents: a compact list that names the agent; the moves are on the task's page.
    await page.getByRole('heading', { name: 'Tasks for my agents' }).waitFor();
    const taskRow = page.locator('.agent-task').filter({ hasText: 'Summarize the report' });
    await taskRow.getByText('for Flaky Summarizer').waitFor();
    expect(await taskRow.getByRole('button').count()).toBe(0);
    await shot(page, 'my-agents');
    await page.getByRole('link', { name: 'New agent' }).click();
    await page.getByRole('heading', { level: 1, name: 'New agent' }).waitFor();
    // The input form can wait: it is folded away until opened.
    await page.getByText(/^Can wait:/).click();
    await page.getByText('No schema: requesters send any JSON object.').waitFor();
    await accessible(page, 'new agent');
    await page.goBack();
    await page.locator('.agent-rows').getByRole('link', { name: 'Flaky Summarizer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Flaky Summarizer' }).waitFor();
    // Its first delivery failed: the endpoint is failing, shown as a banner.
    await page.getByRole('alert').filter({ hasText: /failing since/ }).waitFor();

    // The input schema: checked as it is typed, with the requesters' form previewed beside it.
    const schemaField = page.getByLabel('Input schema (JSON Schema)');
    await schemaField.fill('{"type": "object", "properties": {');
    await page.getByText(/^Input schema is not valid JSON/).waitFor();
    await schemaField.fill('{"type": "object", "required": ["url"], "properties": {"url": {"type": "string", "title": "Report URL", "format": "uri"}}}');
    await page.getByText('Valid JSON Schema.').waitFor();
    await page.locator('.schema-editor').getByLabel(/Report URL/).waitFor();

    // The console is in sections, each saved on its own.
    const section = (name: string) => page.getByRole('region', { name, exact: true });
    for (const name of ['Profile', 'Endpoint and signing', 'Limits', 'Input form', 'Deliveries']) await section(name).waitFor();
    await section('Input form').getByRole('button', { name: 'Save changes' }).click();
    await section('Input form').getByText('Saved.').waitFor();

    // The service's message, next to the field it names.
    await page.getByLabel('Endpoint URL').fill('ftp://example.com/tasks');
    await section('Endpoint and signing').getByRole('button', { name: 'Save changes' }).click();
    const endpointError = page.locator('#agent-endpoint-error');
    await endpointError.waitFor();
    expect(await endpointError.textContent()).toMatch(/^Endpoint URL /);
    await page.getByLabel('Endpoint URL').fill(flakyAgent.url);
    await section('Endpoint and signing').getByRole('button', { name: 'Save changes' }).click();
    await section('Endpoint and signing').getByText('Saved.').waitFor();
    await page.getByLabel('Tags').fill('nlp, summaries, reports');
    await section('Profile').getByRole('button', { name: 'Save changes' }).click();
    await section('Profile').getByText('Saved.').waitFor();
    const saved = (await server.api.get(`/v1/agents/${flakyId}`, { key: owner.apiKey })).body.data;
    expect(saved.tags).toEqual(['nlp', 'summaries', 'reports']);
    expect(JSON.parse(saved.inputSchema).properties.url.title).toBe('Report URL');

    // A new secret is shown once; the redelivery is signed with it.
    await page.getByRole('button', { name: 'Generate secret' }).click();
    const secret = await page.getByLabel(/New secret/).inputValue();
    expect(secret.length).toBeGreaterThan(20);
    flakyAgent.secret = secret;
    await page.getByRole('button', { name: 'Rotate secret' }).waitFor();

    const log = page.locator('.delivery');
    await log.first().getByRole('cell', { name: '500', exact: true }).waitFor();
    // The log is grouped by task, named and linked rather than its id, with the task's state.
    const taskGroup = page.locator('.delivery-group').filter({ has: page.getByRole('link', { name: 'Summarize the report' }) });
    await taskGroup.locator('.badge', { hasText: 'matched' }).waitFor();
    // The task is still matched, so its delivery can be sent again.
    await log.first().getByRole('button', { name: /Redeliver/ }).click();
    await page.getByText(/queued again/).waitFor();
    const received = await flakyAgent.waitFor(2);
    expect(received[1]!.signatureValid).toBe(true);
    expect(received[1]!.body.taskId).toBe(received[0]!.body.taskId);

    await until('the second attempt is recorded', async () => (await server.prisma.deliveryAttempt.count({ where: { statusCode: 200 } })) >= 1);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await log.first().getByRole('cell', { name: '200', exact: true }).waitFor();
    // A test ping on demand, answered by the agent.
    await page.getByRole('button', { name: 'Send test ping' }).click();
    await page.getByText(/Ping answered 200/).waitFor();
    await shot(page, 'my-agent');

    // The delivery log at phone width: no sideways scrolling.
    const phone = await newPage(PHONE, 'owner-phone');
    await signIn(phone.page, owner.apiKey);
    await phone.page.goto(`${server.url}/my/agents/${flakyId}`);
    await phone.page.locator('.delivery').first().getByRole('cell', { name: /(^|: )200$/ }).waitFor();
    expect(await overflowOf(phone.page)).toBe(0);
    await shot(phone.page, 'my-agent-phone');
    await phone.page.goto(`${server.url}/my/agents`);
    await phone.page.locator('.agent-task').first().waitFor();
    expect(await overflowOf(phone.page)).toBe(0);
    await accessible(phone.page, 'my agents at phone width');
    await phone.context.close();

    // The owner finishes the task on its page, reached from the list of tasks for their agents.
    await page.getByRole('link', { name: 'All my agents' }).click();
    await page.locator('.agent-task').getByRole('link', { name: 'Summarize the report' }).click();
    await page.getByRole('heading', { name: 'Work on this task' }).waitFor();
    // The owner's timeline shows each delivery attempt between the moves.
    const ownerTimeline = page.locator('.timeline');
    await ownerTimeline.getByText(/endpoint \(attempt 1\): HTTP 500 in \d+ ms/).waitFor();
    await ownerTimeline.getByText(/endpoint \(attempt 2\): HTTP 200 in \d+ ms/).waitFor();
    await accessible(page, 'task page for the owner');
    // The owner may also ask the requester for input; an empty question is refused in words.
    await page.getByRole('button', { name: 'Ask for input' }).click();
    await page.getByText('Write the question the requester should answer.').waitFor();
    await page.getByLabel('Ask the requester').fill('Which pages matter most?');
    await page.getByRole('button', { name: 'Ask for input' }).click();
    await page.locator('.status-line').getByText('input required').waitFor();
    await page.locator('.timeline').getByText(/You asked for more input/).waitFor();
    const answered = await server.api.post(`/v1/tasks/${task.body.data.id}/input`, { key: requester.apiKey, body: { input: { answer: 'The summary' } } });
    expect(answered.status).toBe(200);
    // Back to work, live.
    await page.locator('.status-line').getByText('in progress').waitFor();
    await page.locator('.timeline').getByText(/The requester answered the input request/).waitFor();
    await page.getByLabel('Result (JSON)').fill('{"summary": "Revenue grew."}');
    await page.getByRole('button', { name: 'Complete' }).click();
    await page.locator('.status-line').getByText('completed').waitFor();
    await page.locator('.timeline').getByText(/You completed the task/).waitFor();
    expect((await server.api.get(`/v1/tasks/${task.body.data.id}`, { key: requester.apiKey })).body.data).toMatchObject({
      status: 'completed',
      result: { summary: 'Revenue grew.' },
    });
    // The delivery log agrees with the task: no Redeliver once it is completed.
    await page.goto(`${server.url}/my/agents/${flakyId}`);
    const group = page.locator('.delivery-group').filter({ hasText: 'Summarize the report' });
    await group.locator('.badge', { hasText: 'completed' }).waitFor();
    expect(await group.getByRole('button', { name: /Redeliver/ }).count()).toBe(0);
    await context.close();
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('filters, sorts and pages the discover list, keeping the search in the URL', async () => {
    const { context, page } = await newPage(DESKTOP, 'discover-filters');
    const names = () => page.locator('.card h2').allTextContents();
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: 'Code Reviewer' }).waitFor();

    await page.getByLabel('Sort by').selectOption('created');
    await page.waitForURL(/\?sort=created$/);
    await until('newest first', async () => JSON.stringify(await names()) === JSON.stringify(['Invoice Extractor', 'Code Reviewer', 'Flaky Summarizer', 'French Translator']));

    // Filters are chips with counts: pressing one filters, pressing it again takes it off.
    const ocr = page.getByRole('group', { name: 'Capabilities' }).getByRole('button', { name: 'ocr, 1 agent' });
    await ocr.click();
    await page.waitForURL(/capability=ocr/);
    await until('only the OCR agent', async () => JSON.stringify(await names()) === JSON.stringify(['Invoice Extractor']));
    expect(await ocr.getAttribute('aria-pressed')).toBe('true');
    // Back: the form shows the earlier search again, and so do the results.
    await page.goBack();
    await page.waitForURL(/\?sort=created$/);
    await until('the chip follows the URL', async () => (await ocr.getAttribute('aria-pressed')) === 'false');
    await until('all four again', async () => (await names()).length === 4);
    await page.goForward();
    await page.waitForURL(/capability=ocr/);
    await until('the chip follows the URL again', async () => (await ocr.getAttribute('aria-pressed')) === 'true');
    await ocr.click();
    await page.waitForURL(/\?sort=created$/);

    // More agents than a page holds (12).
    for (let i = 1; i <= 10; i++) {
      await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: `Helper ${i}`, endpoint: translatorAgent.url, description: 'A helper' } });
    }
    await page.reload();
    await page.getByText('14 agents found').waitFor();
    expect(await names()).toHaveLength(12);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/page=2/);
    await page.getByText('Page 2 of 2').waitFor();
    await until('the last two', async () => (await names()).length === 2);
    expect(await names()).toEqual(['Flaky Summarizer', 'French Translator']);
    await context.close();
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('checks an inputSchema pattern without freezing the tab, however the pattern backtracks', async () => {
    // ^(a+)+$ against many a's and one other character takes a backtracking engine exponential time.
    const created = await server.api.post('/v1/agents', {
      key: owner.apiKey,
      body: {
        name: 'Pattern Checker',
        endpoint: translatorAgent.url,
        description: 'Takes a code of a letters',
        inputSchema: JSON.stringify({
          type: 'object',
          required: ['code'],
          properties: { code: { type: 'string', title: 'Code', pattern: '^(a+)+$', default: `${'a'.repeat(64)}!` } },
        }),
      },
    });
    expect(created.status).toBe(201);
    const { context, page } = await newPage(DESKTOP, 'pattern');
    await signIn(page, requester.apiKey);
    await page.goto(`${server.url}/agents/${created.body.data.slug}`);
    await page.getByRole('heading', { level: 1, name: 'Pattern Checker' }).waitFor();
    await page.getByLabel('Title').fill('A code');
    await page.getByLabel('Description').fill('Check it');
    await page.getByRole('button', { name: 'Send task' }).click();
    // The pattern's error appears by the field at once, and the page still answers.
    const codeField = page.locator('.form-group').filter({ has: page.getByLabel('Code') });
    await codeField.getByText(/Code is not in the expected format/).waitFor({ timeout: 5_000 });
    await accessible(page, 'task form with errors');
    expect(await page.evaluate(() => 1 + 1)).toBe(2);
    expect(translatorAgent.received.filter((d) => d.body.title === 'A code')).toHaveLength(0);
    await context.close();
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('works with the keyboard alone: search, the task form and the task page', async () => {
    const { context, page } = await newPage(DESKTOP, 'keyboard');
    await signIn(page, requester.apiKey);
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { level: 1, name: 'Find an agent for the job' }).waitFor();
    // Keyboard use starts at the page's heading, past the header.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await tabTo(page, page.getByLabel('Search'));
    await page.keyboard.type('french');
    const link = page.getByRole('link', { name: 'French Translator' });
    await link.waitFor();
    await tabTo(page, link);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'French Translator' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');

    // The task form, field by field; Enter in a field sends it.
    await tabTo(page, page.getByLabel('Title'));
    await page.keyboard.type('Keyboard task');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Typed without a mouse');
    await tabTo(page, page.getByLabel(/Text to translate/));
    await page.keyboard.type('Thank you');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/tasks\/tsk_\w+$/);
    // The card hold's test form, by keyboard too.
    await tabTo(page, page.getByRole('button', { name: 'Confirm test payment' }));
    await page.keyboard.press('Enter');
    const status = page.locator('.status-line');
    await status.getByText('in progress').waitFor();

    // The task page: the agent's link and the cancel button are reachable; cancelling asks first.
    await tabTo(page, page.locator('.task-summary').getByRole('link', { name: 'French Translator' }));
    await tabTo(page, page.getByRole('button', { name: 'Cancel task' }));
    await page.keyboard.press('Enter');
    await status.getByText('cancelled').waitFor();
    await accessible(page, 'task cancelled by keyboard');
    await context.close();
    expect(pageErrors).toEqual([]);
  }, 120_000);

  // Last: its agent would show in the discover list the test above pages through.
  it('a requester answers an input request and rejects a result; the owner refunds the dispute', async () => {
    const careful = await startTestAgent();
    try {
      const agentId = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Careful Writer', endpoint: careful.url, capabilities: ['writing'] } })).body.data.id;
      const created = await server.api.post('/v1/tasks', {
        key: requester.apiKey,
        body: { title: 'Write a slogan', description: 'For a bakery', agentId, reviewWindowSeconds: 3600 },
      });
      const taskId = created.body.data.id as string;
      await careful.waitFor(1);
      const asked = await server.api.post(`/v1/tasks/${taskId}/request-input`, {
        key: owner.apiKey,
        body: { message: 'Which city is the bakery in?', inputSchema: { type: 'object', required: ['city'], properties: { city: { type: 'string', title: 'City', minLength: 2 } } } },
      });
      expect(asked.body.data.status).toBe('input_required');

      const { context, page } = await newPage(DESKTOP, 'trust-requester');
      await signIn(page, requester.apiKey);
      await page.goto(`${server.url}/tasks/${taskId}`);
      const status = page.locator('.status-line');
      await status.getByText('input required').waitFor();
      await page.getByRole('region', { name: 'The agent needs more input' }).getByText('Which city is the bakery in?').waitFor();
      // The question is in the timeline too, with who asked.
      await page.locator('.timeline').getByText('Which city is the bakery in?').waitFor();
      await accessible(page, 'input request');
      await page.getByLabel(/City/).fill('Lyon');
      await page.getByRole('button', { name: 'Send answer' }).click();
      await status.getByText('in progress').waitFor();
      // The answer reached the agent as a signed task.input delivery.
      const answer = await until('the task.input delivery', () => careful.received.find((d) => d.headers['x-service-event'] === 'task.input'));
      expect(answer.body.input).toEqual({ city: 'Lyon' });
      expect(answer.signatureValid).toBe(null);

      // The agent's result waits for review; the page follows live.
      await server.api.patch(`/v1/tasks/${taskId}/complete`, { key: owner.apiKey, body: { result: { slogan: 'Bread, but better' } } });
      await status.getByText('delivered').waitFor();
      await page.getByRole('heading', { name: 'Review the result' }).waitFor();
      await shot(page, 'task-review');
      await page.getByLabel('Reason for rejecting').fill('It does not mention Lyon');
      await page.getByRole('button', { name: 'Reject result' }).click();
      await status.getByText('disputed').waitFor();
      await page.getByText('Rejected by the requester: It does not mention Lyon').waitFor();
      await context.close();

      // The owner refunds from the same page.
      const ownerPage = await newPage(DESKTOP, 'trust-owner');
      await signIn(ownerPage.page, owner.apiKey);
      await ownerPage.page.goto(`${server.url}/tasks/${taskId}`);
      await ownerPage.page.getByRole('heading', { name: 'Dispute' }).waitFor();
      await shot(ownerPage.page, 'task-dispute');
      // The owner sees the requester's record beside the dispute.
      await ownerPage.page.getByRole('heading', { name: "The requester's record" }).waitFor();
      await ownerPage.page.getByRole('button', { name: 'Refund the requester' }).click();
      await ownerPage.page.locator('.status-line').getByText('refunded').waitFor();

      // Throttling and recovery from the agent's page.
      await ownerPage.page.goto(`${server.url}/my/agents/${agentId}`);
      await ownerPage.page.getByLabel('Most tasks at once').fill('3');
      await ownerPage.page.getByLabel('Most deliveries per second').fill('5');
      const limits = ownerPage.page.getByRole('region', { name: 'Limits', exact: true });
      await limits.getByRole('button', { name: 'Save changes' }).click();
      await limits.getByText('Saved.').waitFor();
      expect((await server.api.get(`/v1/agents/${agentId}`, { key: owner.apiKey })).body.data).toMatchObject({ maxConcurrentTasks: 3, maxDeliveriesPerSecond: 5 });
      await ownerPage.page.getByRole('button', { name: 'Recover' }).click();
      await ownerPage.page.getByText(/failed deliver(y|ies) sent again\./).waitFor();
      expect((await server.api.get(`/v1/tasks/${taskId}`, { key: requester.apiKey })).body.data).toMatchObject({ status: 'refunded', payment: { status: 'released' } });
      await ownerPage.context.close();
      expect(pageErrors).toEqual([]);
    } finally {
      await careful.close();
    }
  }, 120_000);

  it('shows the not-found page for a path with bad percent-encoding', async () => {
    const { context, page } = await newPage(DESKTOP, 'bad-encoding');
    // A long description's raw HTML and script links never run: shown as text or dropped.
    await page.goto(`${server.url}/agents/invoice-extractor`);
    const long = page.getByTestId('long-description');
    await long.locator('strong', { hasText: 'fields' }).waitFor();
    expect(await long.locator('script, img, [onerror]').count()).toBe(0);
    expect(await long.locator('a[href^="javascript"]').count()).toBe(0);
    await long.getByText('<script>window.pwned = 1</script>', { exact: false }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();

    await page.goto(`${server.url}/agents/%zz`);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor({ timeout: 10_000 });
    // An unknown address opened in the browser: the dashboard's own page, answered with 404.
    const answer = await page.goto(`${server.url}/no/such/page`);
    expect(answer?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Back to Discover' }).waitFor();
    await shot(page, 'not-found');
    // An unknown agent and an unknown task say so, with a way back.
    await page.goto(`${server.url}/agents/no-such-agent`);
    await page.getByRole('heading', { level: 1, name: 'Agent not found' }).waitFor();
    await accessible(page, 'agent not found');
    await signIn(page, requester.apiKey);
    await page.goto(`${server.url}/tasks/tsk_nosuchtask`);
    await page.getByRole('heading', { level: 1, name: 'Task not found' }).waitFor();
    await accessible(page, 'task not found');
    // A search that finds nothing says what to try.
    await page.goto(`${server.url}/?q=zzzzqqqq&capability=nothing`);
    await page.getByText('No agent matches this search').waitFor();
    await page.getByRole('button', { name: 'Clear the filters' }).waitFor();
    await accessible(page, 'empty search');
    await context.close();
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
