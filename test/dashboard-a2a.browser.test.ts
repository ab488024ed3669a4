// The dashboard for agents that speak A2A, in a real browser: an owner imports an agent built with
// @a2a-js/sdk from its signed card, sees its protocol, card and verification, refreshes the card, and
// reads the SendMessage call in the delivery log.
import { afterAll, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { browserSuite, signInWithKey } from './support/browser.js';
import { startSdkAgent, type SdkAgent } from './support/a2a-agent.js';
import { until } from './support/wait.js';

const suite = browserSuite('dashboard-a2a.browser.test.ts', { test });

let server: TestServer;
let agent: SdkAgent;
let owner: { id: string; apiKey: string };

suite.describe('dashboard for A2A agents', () => {
  test.beforeAll(async ({ server: s }) => {
    server = s;
    owner = await server.createUser('a2a-owner@example.com');
    agent = await startSdkAgent({ name: 'Signed Swift', sign: 'jku' });
    agent.behave((ctx, bus) => {
      bus.publish({ kind: 'task', data: { id: ctx.taskId, contextId: ctx.contextId, status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: new Date().toISOString() }, artifacts: [], history: [], metadata: undefined } });
      bus.finished();
    });
  }, 120_000);

  afterAll(async () => {
    await agent?.close();
  });

  it('imports an agent from its card and shows protocol, card and verification', async () => {
    const { context, page } = await suite.newPage({ viewport: { width: 1100, height: 820 }, failureShot: 'a2a-agent' });
    await signInWithKey(page, server.url, owner.apiKey);
    await page.getByRole('link', { name: 'My agents' }).click();

    await page.getByLabel('Import an A2A agent from its card').fill(agent.cardUrl);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Signed Swift' }).waitFor();
    const card = page.locator('section[aria-labelledby="a2a-card"]');
    await card.getByText('Verified').waitFor();
    expect(await card.textContent()).toContain(agent.cardUrl);
    expect(await card.textContent()).toContain('Birdworks');
    // No webhook secret for an agent that takes its tasks over A2A.
    expect(await page.getByRole('heading', { name: 'Webhook secret' }).count()).toBe(0);

    await card.getByRole('button', { name: 'Refresh card' }).click();
    await page.getByText('The card was fetched again.').waitFor();

    const agentId = page.url().split('/').pop()!;
    const requester = await server.createUser();
    const task = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Hello', description: 'World', agentId } });
    expect(task.status).toBe(201);
    await until('the SendMessage recorded', async () => (await server.prisma.deliveryAttempt.count({ where: { delivery: { agentId }, statusCode: 200 } })) > 0);
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await page.locator('.delivery').first().getByRole('cell', { name: '200', exact: true }).waitFor();
    expect(await page.locator('.delivery').first().textContent()).toContain('task');

    await page.getByRole('link', { name: 'All my agents' }).click();
    await page.getByText('A2A, signed card verified').waitFor();
    await context.close();
    expect(suite.pageErrors).toEqual([]);
  }, 120_000);
});
