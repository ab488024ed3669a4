// Paying and being paid in the dashboard, in a real browser (Debian's chromium through playwright-core).
// With Stripe: the page loads Stripe.js from js.stripe.com and takes cards in Stripe's frame; both are a
// stand-in served at Stripe's own addresses (support/stripe-js-standin.ts) that confirms intents at the
// local Stripe API stand-in, which sends its signed webhook to the service, so the hold moves the way
// it would in production. A requester saves a card, sends a paid task (held at once), removes the card,
// confirms a hold that needs 3-D Secure, has a card declined and retries, buys credits and reads the
// history; an owner onboards for payouts and reads the earnings. With the simulated processor, the same
// pages show the test form. Every page is checked with axe, at desktop and phone width.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axeViolations, browserSuite, signInWithKey } from './support/browser.js';
import { callBack, startTestAgent, type TestAgent } from './support/agent.js';
import { startPaymentWorld, WEBHOOK_SECRET, type PaymentWorld } from './support/payments.js';
import { until } from './support/wait.js';
import { projectRoot } from './support/processes.js';
import { serveStripeToBrowser, type StripeBrowserSide } from './support/stripe-js-standin.js';

// Its services are the payment worlds' own (support/payments.ts), not the fixtures'.
const suite = browserSuite('billing.browser.test.ts');
const { pageErrors } = suite;
const README_SHOTS = new Set(['billing', 'payouts', 'task-3ds', 'task-declined', 'task-test-card', 'billing-phone']);
const shotPath = (name: string) =>
  path.join(projectRoot, process.env.UPDATE_SCREENSHOTS === '1' && README_SHOTS.has(name) ? 'docs/screenshots' : 'test-artifacts/pages', `${name}.png`);
const DESKTOP = { width: 1100, height: 820 };
const PHONE = { width: 375, height: 740 };
const CARD_NUMBERS = ['4242424242424242', '4000002760003184', '4000000000000002'];

const overflowOf = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function accessible(page: Page, name: string): Promise<void> {
  expect(await axeViolations(page), `axe on ${name}`).toEqual([]);
}

// The elements that stick out past the right edge, for a failure's message.
const wideElements = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !el.parentElement?.closest('.table-scroll'))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
  );

async function shot(page: Page, name: string): Promise<void> {
  await accessible(page, name);
  expect(await overflowOf(page), `no sideways scrolling on ${name}: ${(await wideElements(page)).join(', ')}`).toBe(0);
  await mkdir(path.dirname(shotPath(name)), { recursive: true });
  await page.screenshot({ path: shotPath(name), fullPage: true });
}

// Everything the browser sends to the service, to show no card number ever reaches it.
async function newPage(base: string, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page; toService: string[] }> {
  const { context, page } = await suite.newPage({ viewport, failureShot: `billing-failure-${Date.now()}` });
  const toService: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(base)) toService.push(`${request.url()} ${request.postData() ?? ''}`);
  });
  page.on('dialog', (dialog) => void dialog.accept());
  return { context, page, toService };
}

// A task sent from the agent's page; answers its id.
async function sendTask(page: Page, base: string, slug: string, title: string): Promise<string> {
  await page.goto(`${base}/agents/${slug}`);
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Description').fill('Please');
  await page.getByRole('button', { name: 'Send task' }).click();
  await page.waitForURL(/\/tasks\/tsk_\w+$/);
  return page.url().split('/').pop()!;
}

// Typing a card into Stripe's (stand-in) Payment Element, inside its frame.
async function typeCard(page: Page, number: string): Promise<void> {
  const frame = page.frameLocator('iframe[title="Secure payment input frame"]');
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiration date').fill('12 / 34');
  await frame.getByLabel('Security code').fill('123');
}

suite.describe('paying with Stripe in the dashboard', () => {
  let world: PaymentWorld;
  let base: string;
  let agent: TestAgent;
  let requester: { id: string; apiKey: string };
  let owner: { id: string; apiKey: string };
  let stripeSide: StripeBrowserSide;

  beforeAll(async () => {
    world = await startPaymentWorld('stripe');
    // The service's links and cookies are on localhost (PUBLIC_BASE_URL's default); the browser uses it too.
    base = world.server.url.replace('127.0.0.1', 'localhost');
    world.standin!.sendEventsTo(`${world.server.url}/v1/webhooks/stripe`, WEBHOOK_SECRET);
    agent = await startTestAgent();
    requester = await world.server.createUser('payer@example.com');
    owner = await world.server.createUser('earner@example.com');
    for (const body of [
      { name: 'French Translator', priceCents: 250 },
      { name: 'Code Reviewer', priceCents: 900 },
    ]) {
      const res = await world.server.api.post('/v1/agents', {
        key: owner.apiKey,
        body: { ...body, endpoint: agent.url, description: 'Works well', capabilities: ['work'], protocols: ['http'] },
      });
      expect(res.status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    await agent?.close();
    await world?.close();
  });

  it('a requester saves a card, pays with 3-D Secure, retries a decline, buys credits and reads the history; the owner onboards and sees earnings', async () => {
    const { context, page, toService } = await newPage(base);
    stripeSide = await serveStripeToBrowser(context, world.standin!);
    await signInWithKey(page, base, requester.apiKey);

    // Test keys: every page says so; the billing page says "test payment".
    await page.goto(`${base}/billing`);
    await expect.poll(() => page.locator('.test-mode-banner').textContent()).toBe('Test mode');
    await page.getByTestId('test-payment').getByText(/test payment setup: Stripe's test mode/).waitFor();
    await page.getByTestId('card-on-file').getByText('No card saved').waitFor();

    // Save a card: a SetupIntent confirmed in Stripe's element; the service learns brand and last four.
    await page.getByRole('button', { name: 'Save a card' }).click();
    await typeCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByTestId('card-on-file').getByText('Visa ••4242').waitFor();
    expect((await world.server.prisma.user.findUniqueOrThrow({ where: { id: requester.id } })).cardLast4).toBe('4242');

    // A paid task is held at once on the saved card.
    const held = await sendTask(page, base, 'french-translator', 'Held at once');
    await page.getByTestId('task-payment').getByText('$2.50 held on Visa ••4242').waitFor();
    expect(await page.getByRole('heading', { name: /^Pay / }).count()).toBe(0);
    const [first] = await agent.waitFor(1);
    expect(first!.body).toMatchObject({ taskId: held });

    // Credits for another agent, from its page, with the saved card.
    await page.goto(`${base}/agents/code-reviewer`);
    await page.getByRole('link', { name: 'Buy credits' }).click();
    await page.getByLabel('Credits to buy for Code Reviewer').fill('2');
    await page.getByRole('button', { name: 'Buy for $18.00' }).click();
    await page.getByText('Bought 2 for $18.00; balance 2.').waitFor();
    await page.getByTestId('credits-code-reviewer').getByText('2 credits').waitFor();

    // Remove the card: later tasks wait for their holds to be confirmed.
    await page.getByRole('button', { name: 'Remove card' }).click();
    await page.getByTestId('card-on-file').getByText('No card saved').waitFor();

    // A card that needs 3-D Secure: Stripe's challenge, then the webhook places the hold and the page
    // follows live.
    const secure = await sendTask(page, base, 'french-translator', 'With 3-D Secure');
    await page.getByRole('heading', { name: 'Pay $2.50 by card' }).waitFor();
    await page.getByTestId('test-payment').waitFor();
    expect(await page.getByTestId('task-payment').textContent()).toBe('Payment: $2.50 to be held on card, waiting for confirmation');
    await typeCard(page, '4000 0027 6000 3184');
    await page.getByRole('button', { name: 'Confirm payment' }).click();
    const challenge = page.frameLocator('iframe[title="3D Secure authentication"]');
    await challenge.getByRole('button', { name: 'Complete authentication' }).waitFor();
    await shot(page, 'task-3ds');
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    await page.getByTestId('task-payment').getByText('$2.50 held on Visa ••3184').waitFor();
    await page.locator('.status-line').getByText(/matched|in progress/).waitFor();
    // Moved by the processor's webhook, which the service accepted.
    expect((await world.server.api.get(`/v1/tasks/${secure}`, { key: requester.apiKey })).body.data.payment).toMatchObject({ status: 'authorized', cardLast4: '3184' });
    expect(world.standin!.events.filter((e) => e.type === 'payment_intent.amount_capturable_updated').every((e) => e.status === 200)).toBe(true);
    await agent.waitFor(2);

    // A declined card leaves the task pending with the form to try again; abandoning the page changes
    // nothing either; then a good card goes through.
    const retried = await sendTask(page, base, 'french-translator', 'Declined then retried');
    await typeCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Confirm payment' }).click();
    await page.getByRole('alert').getByText(/Your card was declined\. Nothing was charged\./).waitFor();
    await page.locator('.status-line').getByText('pending').waitFor();
    await shot(page, 'task-declined');
    await page.reload();
    await page.getByRole('heading', { name: 'Pay $2.50 by card' }).waitFor();
    expect((await world.server.api.get(`/v1/tasks/${retried}`, { key: requester.apiKey })).body.data).toMatchObject({ status: 'pending', payment: { status: 'pending' } });
    await typeCard(page, '4242424242424242');
    await page.getByRole('button', { name: 'Confirm payment' }).click();
    await page.getByTestId('task-payment').getByText('$2.50 held on Visa ••4242').waitFor();

    // The first task completes: captured, with the processor's receipt.
    expect((await callBack(first!, { result: { text: 'Bonjour' } })).status).toBe(200);
    await until('the receipt is recorded', async () => (await world.server.prisma.payment.findUnique({ where: { taskId: held } }))?.receiptUrl);

    // The history and this month's spending.
    await page.goto(`${base}/billing`);
    const history = page.locator('table.history');
    const row = history.locator('tr', { hasText: 'Held at once' });
    await row.getByText('captured').waitFor();
    expect(await row.textContent()).toMatch(/French Translator\$2\.50Visa ••4242captured/);
    expect(await row.getByRole('link', { name: /Receipt/ }).getAttribute('href')).toMatch(/^https:\/\/pay\.stripe\.com\/receipts\//);
    await history.locator('tr', { hasText: 'With 3-D Secure' }).getByText('held').waitFor();
    await history.locator('tr', { hasText: 'Declined then retried' }).getByText('held').waitFor();
    // $2.50 captured and $18.00 of credits; holds are not spending until captured.
    expect(await page.getByTestId('spent-this-month').textContent()).toBe('$20.50');
    await shot(page, 'billing');

    // Nothing of a card ever reached the service: the numbers went to Stripe's API only.
    // Compared without spaces and form encoding, however the number was typed.
    const digitsOf = (text: string) => decodeURIComponent(text.replace(/\+/g, ' ')).replace(/[\s-]/g, '');
    for (const number of CARD_NUMBERS) {
      expect(toService.filter((line) => digitsOf(line).includes(number))).toEqual([]);
      expect(stripeSide.apiBodies.some((body) => digitsOf(body).includes(number))).toBe(true);
    }

    // Phone width: the billing page and a task waiting for its payment.
    const phone = await newPage(base, PHONE);
    await serveStripeToBrowser(phone.context, world.standin!);
    await signInWithKey(phone.page, base, requester.apiKey);
    await phone.page.goto(`${base}/billing`);
    await phone.page.locator('table.history').waitFor();
    await shot(phone.page, 'billing-phone');
    const waiting = await sendTask(phone.page, base, 'french-translator', 'Waiting on a phone');
    await phone.page.frameLocator('iframe[title="Secure payment input frame"]').getByLabel('Card number').waitFor();
    expect(waiting).toMatch(/^tsk_/);
    await shot(phone.page, 'task-pay-phone');
    await phone.context.close();
    await context.close();
    expect(pageErrors).toEqual([]);
  }, 180_000);

  it('an owner starts payout onboarding, comes back to its state, and sees each task’s share and transfer', async () => {
    const { context, page } = await newPage(base);
    await serveStripeToBrowser(context, world.standin!);
    await signInWithKey(page, base, owner.apiKey);
    await page.goto(`${base}/billing/payouts`);
    await page.getByTestId('onboarding-state').getByText(/^Not set up/).waitFor();
    // The completed task of the first test: $2.50, the platform's 10 % fee, the owner's $2.25, owed.
    const earning = page.locator('table.history tr', { hasText: 'Held at once' });
    expect(await earning.textContent()).toMatch(/French Translator\$2\.50\$0\.25\$2\.25.*Owed/);
    expect(await page.getByTestId('owed').textContent()).toBe('$2.25');
    await accessible(page, 'payouts before onboarding');

    // Stripe's hosted onboarding (stand-in), then back to this page: details given, Stripe checking them.
    await page.getByRole('button', { name: 'Set up payouts' }).click();
    await page.getByRole('button', { name: 'Submit details' }).click();
    await page.waitForURL(`${base}/billing/payouts?onboarding=done`);
    await page.getByText('Back from payout setup.').waitFor();
    await page.getByTestId('onboarding-state').getByText(/^Pending/).waitFor();
    // The owed share went out once the account existed.
    await until('the owed share is transferred', async () => (await world.server.prisma.payment.findFirst({ where: { payeeId: owner.id, transferId: { not: null } } })) !== null);
    await page.reload();
    await page.locator('table.history tr', { hasText: 'Held at once' }).getByText(/Transferred/).waitFor();
    expect(await page.getByTestId('transferred').textContent()).toBe('$2.25');
    expect(await page.getByTestId('owed').textContent()).toBe('$0.00');

    // Stripe enables the account: the page says so when asked again.
    const account = [...world.standin!.accounts.values()][0]!;
    account.payouts_enabled = true;
    account.capabilities = { transfers: 'active' };
    await page.reload();
    await page.getByTestId('onboarding-state').getByText(/^Enabled/).waitFor();
    await shot(page, 'payouts');
    await context.close();

    const phone = await newPage(base, PHONE);
    await signInWithKey(phone.page, base, owner.apiKey);
    await phone.page.goto(`${base}/billing/payouts`);
    await phone.page.getByTestId('onboarding-state').getByText(/^Enabled/).waitFor();
    await shot(phone.page, 'payouts-phone');
    await phone.context.close();
    expect(pageErrors).toEqual([]);
  }, 120_000);
});

suite.describe('paying with the simulated processor in the dashboard', () => {
  let world: PaymentWorld;
  let base: string;
  let agent: TestAgent;
  let requester: { id: string; apiKey: string };

  beforeAll(async () => {
    world = await startPaymentWorld('simulated');
    base = world.server.url.replace('127.0.0.1', 'localhost');
    agent = await startTestAgent();
    requester = await world.server.createUser('tester@example.com');
    const owner = await world.server.createUser();
    const res = await world.server.api.post('/v1/agents', {
      key: owner.apiKey,
      body: { name: 'Poem Writer', priceCents: 125, endpoint: agent.url, description: 'Writes poems', capabilities: ['poems'], protocols: ['http'] },
    });
    expect(res.status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await agent?.close();
    await world?.close();
  });

  it('shows a plainly labelled test form that declines and then confirms, and saves a test card', async () => {
    const { context, page } = await newPage(base);
    // No Stripe.js is loaded with the simulated processor.
    const stripeRequests: string[] = [];
    page.on('request', (request) => {
      if (/stripe\.com/.test(request.url())) stripeRequests.push(request.url());
    });
    await signInWithKey(page, base, requester.apiKey);
    await expect.poll(() => page.locator('.test-mode-banner').textContent()).toBe('Test mode');

    const taskId = await sendTask(page, base, 'poem-writer', 'A short poem');
    await page.getByRole('group', { name: /Test card \(simulated processor/ }).waitFor();
    await page.getByTestId('test-payment').getByText(/This is a test payment: the simulated processor moves no real money\./).waitFor();
    await page.getByLabel('A card that is declined').check();
    await page.getByRole('button', { name: 'Confirm test payment' }).click();
    await page.getByRole('alert').getByText(/declined/).waitFor();
    await page.locator('.status-line').getByText('pending').waitFor();
    await page.getByLabel('Visa ••4242, succeeds').check();
    await shot(page, 'task-test-card');
    await page.getByRole('button', { name: 'Confirm test payment' }).click();
    await page.getByTestId('task-payment').getByText('$1.25 held on Visa ••4242').waitFor();
    const [delivery] = await agent.waitFor(1);
    expect(delivery!.body).toMatchObject({ taskId });

    await page.goto(`${base}/billing`);
    await page.getByRole('button', { name: 'Save a card' }).click();
    await page.getByRole('button', { name: 'Save test card' }).click();
    await page.getByTestId('card-on-file').getByText('Visa ••4242').waitFor();
    await page.locator('table.history tr', { hasText: 'A short poem' }).getByText('held').waitFor();
    await accessible(page, 'billing with the simulated processor');
    expect(stripeRequests).toEqual([]);
    await context.close();
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
