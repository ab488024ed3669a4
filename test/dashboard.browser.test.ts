// The dashboard in a real browser (Debian's chromium, driven by playwright-core) against the running
// service and a loopback agent: a requester finds an agent despite a typo, fills the form made from
// its inputSchema and watches the task go live to completed; an owner edits an agent, rotates its
// secret and redelivers from the delivery log. Each page is saved to docs/screenshots/ for the README;
// a failing test leaves a screenshot in test-artifacts/.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { buildWeb } from '../scripts/build-web.js';
import { startTestServer, type TestServer } from './support/server.js';
import { CHROMIUM, chromiumPresent } from './support/browser.js';
import { callBack, startTestAgent, type TestAgent } from './support/agent.js';
import { projectRoot } from './support/processes.js';
import { until } from './support/wait.js';

const present = chromiumPresent('dashboard.browser.test.ts');
// The README's pictures are refreshed on request (UPDATE_SCREENSHOTS=1); ordinary runs write them into the
// ignored artifacts folder so a test run leaves the tree unchanged.
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1'
  ? path.join(projectRoot, 'docs/screenshots')
  : path.join(projectRoot, 'test-artifacts/pages');
const ARTIFACTS = path.join(projectRoot, 'test-artifacts');
const DESKTOP = { width: 1100, height: 820 };
const PHONE = { width: 375, height: 740 };

const TRANSLATOR_SCHEMA = {
  type: 'object',
  required: ['text'],
  properties: {
    text: { type: 'string', title: 'Text to translate', minLength: 1 },
    tone: { type: 'string', title: 'Tone', enum: ['formal', 'casual'], default: 'formal' },
  },
};

let server: TestServer;
let browser: Browser;
let translatorAgent: TestAgent;
let flakyAgent: TestAgent;
let requester: { id: string; apiKey: string };
let owner: { id: string; apiKey: string };
let flakyId: string;
let codeReviewerId: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!present) return;
  await buildWeb();
  await mkdir(SCREENSHOTS, { recursive: true });
  server = await startTestServer();
  translatorAgent = await startTestAgent();
  flakyAgent = await startTestAgent();
  requester = await server.createUser('requester@example.com');
  owner = await server.createUser('owner@example.com');
  const create = (body: Record<string, unknown>) => server.api.post('/v1/agents', { key: owner.apiKey, body }).then((r) => {
    expect(r.status).toBe(201);
    return r.body.data;
  });
  await create({
    name: 'French Translator',
    endpoint: translatorAgent.url,
    description: 'Translates English text into natural French',
    longDescription: 'Short texts, emails and product copy, translated by a fine-tuned model.',
    capabilities: ['translation', 'french'],
    protocols: ['http'],
    categories: ['language'],
    tags: ['nlp', 'french', 'translation'],
    priceCents: 250,
    version: '1.4.0',
    inputSchema: JSON.stringify(TRANSLATOR_SCHEMA),
  });
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
  await create({ name: 'Invoice Extractor', endpoint: translatorAgent.url, description: 'Reads invoices and returns their fields as JSON', capabilities: ['extraction', 'ocr'], protocols: ['http'], categories: ['documents'], tags: ['pdf', 'finance'], priceCents: 0 });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await translatorAgent?.close();
  await flakyAgent?.close();
});

async function newPage(viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  // The page's Content-Security-Policy: anything it blocks is reported on the console, and is a failure.
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) pageErrors.push(message.text());
  });
  // The dashboard asks before replacing a secret.
  page.on('dialog', (dialog) => void dialog.accept());
  return { context, page };
}

function screenshotOnFailure(page: Page, name: string): void {
  onTestFailed(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true }).catch(() => {});
  });
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });

async function signIn(page: Page, apiKey: string): Promise<void> {
  await page.goto(`${server.url}/sign-in`);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${server.url}/tasks`);
}

describe.skipIf(!present)('dashboard in a browser', () => {
  it('a requester finds an agent with a typo, sends a task through its form and watches it complete live', async () => {
    const { context, page } = await newPage();
    screenshotOnFailure(page, 'requester');

    await page.goto(`${server.url}/sign-in`);
    await page.getByText('user create').waitFor();
    // No identity provider is configured, so there is no field for its access tokens.
    expect(await page.getByLabel(/Access token/).count()).toBe(0);
    await shot(page, 'sign-in');
    await signIn(page, requester.apiKey);

    // As-you-type search, with a typo.
    await page.getByRole('link', { name: 'Discover' }).click();
    await page.getByLabel('Search').pressSequentially('tranlsator');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'French Translator' }) });
    await card.waitFor();
    await page.waitForURL(/\?q=tranlsator$/);
    expect(await card.textContent()).toContain('$2.50');
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
    await textField.getByText(/must have required property|must NOT have fewer than 1 characters/).waitFor();
    expect(translatorAgent.received).toHaveLength(0);
    await shot(page, 'agent');

    await page.getByLabel('Text to translate').fill('Good morning');
    await page.getByRole('button', { name: 'Send task' }).click();
    await page.waitForURL(/\/tasks\/tsk_\w+$/);
    const taskId = page.url().split('/').pop()!;

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

    await page.getByLabel('Rating').selectOption('5');
    await page.getByRole('button', { name: 'Rate' }).click();
    await page.getByText('You rated this task 5 / 5.').waitFor();
    await shot(page, 'task');

    await page.getByRole('link', { name: 'My tasks' }).click();
    await page.getByLabel('Status').selectOption('completed');
    await page.getByRole('link', { name: 'Translate a greeting' }).waitFor();
    await shot(page, 'my-tasks');
    await context.close();

    // Phone width: the discover page stays usable (no sideways scrolling).
    const phone = await newPage(PHONE);
    await phone.page.goto(`${server.url}/?q=nlp`);
    await phone.page.getByRole('link', { name: 'French Translator' }).waitFor();
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await shot(phone.page, 'discover-phone');
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
    const { context, page } = await newPage();
    screenshotOnFailure(page, 'cancel');
    await signIn(page, requester.apiKey);
    await page.goto(`${server.url}/tasks/${created.body.data.id}`);
    const status = page.locator('.status-line');
    await status.getByText('pending').waitFor();
    await page.getByRole('button', { name: 'Cancel task' }).click();
    await status.getByText('cancelled').waitFor();
    expect((await server.api.get(`/v1/tasks/${created.body.data.id}`, { key: requester.apiKey })).body.data.status).toBe('cancelled');
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

    const { context, page } = await newPage();
    screenshotOnFailure(page, 'owner');
    await signIn(page, owner.apiKey);
    await page.getByRole('link', { name: 'My agents' }).click();
    await page.getByRole('link', { name: 'Flaky Summarizer' }).waitFor();
    // The failed delivery shows as a banner and as an operational event.
    await page.getByRole('alert').filter({ hasText: 'Flaky Summarizer: endpoint failing' }).waitFor();
    await page.getByText('endpoint.failing').first().waitFor();
    await page.getByRole('heading', { name: 'Tasks for my agents' }).waitFor();
    await page.getByRole('link', { name: 'Summarize the report' }).waitFor();
    await shot(page, 'my-agents');
    await page.getByRole('link', { name: 'Flaky Summarizer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Flaky Summarizer' }).waitFor();
    // Its first delivery failed: the endpoint is failing, shown as a banner.
    await page.getByRole('alert').filter({ hasText: /failing since/ }).waitFor();

    // The service's message, next to the field it names.
    await page.getByLabel('Endpoint URL').fill('ftp://example.com/tasks');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const endpointError = page.locator('#agent-endpoint-error');
    await endpointError.waitFor();
    expect(await endpointError.textContent()).toMatch(/endpoint/);
    await page.getByLabel('Endpoint URL').fill(flakyAgent.url);
    await page.getByLabel('Tags').fill('nlp, summaries, reports');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await server.api.get(`/v1/agents/${flakyId}`, { key: owner.apiKey })).body.data.tags).toEqual(['nlp', 'summaries', 'reports']);

    // A new secret is shown once; the redelivery is signed with it.
    await page.getByRole('button', { name: 'Generate secret' }).click();
    const secret = await page.getByLabel(/New secret/).inputValue();
    expect(secret.length).toBeGreaterThan(20);
    flakyAgent.secret = secret;
    await page.getByRole('button', { name: 'Rotate secret' }).waitFor();

    const log = page.locator('.delivery');
    await log.first().getByRole('cell', { name: '500', exact: true }).waitFor();
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

    // The owner finishes the task from the list of tasks for their agents.
    await page.getByRole('link', { name: 'All my agents' }).click();
    const row = page.locator('.agent-task').filter({ hasText: 'Summarize the report' });
    await row.getByLabel('Result (JSON)').fill('{"summary": "Revenue grew."}');
    await row.getByRole('button', { name: 'Complete' }).click();
    await row.locator('.badge', { hasText: 'completed' }).waitFor();
    expect((await server.api.get(`/v1/tasks/${task.body.data.id}`, { key: requester.apiKey })).body.data).toMatchObject({
      status: 'completed',
      result: { summary: 'Revenue grew.' },
    });
    await context.close();
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('filters, sorts and pages the discover list, keeping the search in the URL', async () => {
    const { context, page } = await newPage();
    screenshotOnFailure(page, 'discover-filters');
    const names = () => page.locator('.card h2').allTextContents();
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: 'Code Reviewer' }).waitFor();

    await page.getByLabel('Sort by').selectOption('created');
    await page.waitForURL(/\?sort=created$/);
    await until('newest first', async () => JSON.stringify(await names()) === JSON.stringify(['Invoice Extractor', 'Code Reviewer', 'Flaky Summarizer', 'French Translator']));

    await page.getByLabel('Capability').fill('ocr');
    await page.waitForURL(/capability=ocr/);
    await until('only the OCR agent', async () => JSON.stringify(await names()) === JSON.stringify(['Invoice Extractor']));
    // Back (typing replaced the sorted entry): the form shows the earlier search again, and so do the results.
    await page.goBack();
    await page.waitForURL(`${server.url}/`);
    expect(await page.getByLabel('Capability').inputValue()).toBe('');
    expect(await page.getByLabel('Sort by').inputValue()).toBe('relevance');
    await until('all four again', async () => (await names()).length === 4);
    await page.goForward();
    await page.waitForURL(/capability=ocr/);
    expect(await page.getByLabel('Capability').inputValue()).toBe('ocr');
    await page.getByLabel('Capability').fill('');
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
    const { context, page } = await newPage();
    screenshotOnFailure(page, 'pattern');
    await signIn(page, requester.apiKey);
    await page.goto(`${server.url}/agents/${created.body.data.slug}`);
    await page.getByRole('heading', { level: 1, name: 'Pattern Checker' }).waitFor();
    await page.getByLabel('Title').fill('A code');
    await page.getByLabel('Description').fill('Check it');
    await page.getByRole('button', { name: 'Send task' }).click();
    // The pattern's error appears by the field at once, and the page still answers.
    const codeField = page.locator('.form-group').filter({ has: page.getByLabel('Code') });
    await codeField.getByText(/must match pattern/).waitFor({ timeout: 5_000 });
    expect(await page.evaluate(() => 1 + 1)).toBe(2);
    expect(translatorAgent.received.filter((d) => d.body.title === 'A code')).toHaveLength(0);
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

      const { context, page } = await newPage();
      screenshotOnFailure(page, 'trust-requester');
      await signIn(page, requester.apiKey);
      await page.goto(`${server.url}/tasks/${taskId}`);
      const status = page.locator('.status-line');
      await status.getByText('input required').waitFor();
      await page.getByText('Which city is the bakery in?').waitFor();
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
      const ownerPage = await newPage();
      screenshotOnFailure(ownerPage.page, 'trust-owner');
      await signIn(ownerPage.page, owner.apiKey);
      await ownerPage.page.goto(`${server.url}/tasks/${taskId}`);
      await ownerPage.page.getByRole('heading', { name: 'Dispute' }).waitFor();
      await shot(ownerPage.page, 'task-dispute');
      await ownerPage.page.getByRole('button', { name: 'Refund the requester' }).click();
      await ownerPage.page.locator('.status-line').getByText('refunded').waitFor();
      expect((await server.api.get(`/v1/tasks/${taskId}`, { key: requester.apiKey })).body.data).toMatchObject({ status: 'refunded', payment: { status: 'released' } });
      await ownerPage.context.close();
      expect(pageErrors).toEqual([]);
    } finally {
      await careful.close();
    }
  }, 120_000);

  it('shows the not-found page for a path with bad percent-encoding', async () => {
    const { context, page } = await newPage();
    screenshotOnFailure(page, 'bad-encoding');
    await page.goto(`${server.url}/agents/%zz`);
    await page.getByText('Page not found').first().waitFor({ timeout: 10_000 });
    await context.close();
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
