// Files in the dashboard, in Debian's chromium: the task form renders the agent's file field, a file is
// attached and its upload progress shown (the network throttled so the upload takes a while), the agent
// reads it by its signed link and answers with an image, and the task page lists both files and shows
// the image.
import { afterAll, expect, it } from 'vitest';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { browserSuite, signInWithKey } from './support/browser.js';
import { callBack, startTestAgent, type TestAgent } from './support/agent.js';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let server: TestServer;
let agent: TestAgent;
let requester: { id: string; apiKey: string };

const test = testWith({ serverEnv: { DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'files-')) } });
const suite = browserSuite('files.browser.test.ts', { test });

suite.describe('files in the dashboard', () => {
  test.beforeAll(async ({ server: s, owner, requester: r }) => {
    [server, requester] = [s, r];
    agent = await startTestAgent();
    const created = await server.api.post('/v1/agents', {
      key: owner.apiKey,
      body: {
        name: 'Page Reader',
        endpoint: agent.url,
        capabilities: ['ocr'],
        protocols: ['http'],
        priceCents: 0,
        inputSchema: JSON.stringify({ type: 'object', required: ['scan'], properties: { scan: { type: 'string', format: 'binary', title: 'Scan' } } }),
      },
    });
    expect(created.status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await agent?.close();
  });

  it('attaches a file with a progress bar and shows the result file on the task page', async () => {
    const { context, page } = await suite.newPage({ viewport: { width: 1100, height: 820 } });
    await signInWithKey(page, server.url, requester.apiKey);
    await page.goto(`${server.url}/agents/page-reader`);
    await page.getByLabel('Title').fill('Read a scan');
    await page.getByLabel('Description').fill('OCR this page');

    // Uploads at about 1 MB/s: the 3 MB file takes a few seconds, and the bar is seen moving.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1024 * 1024 });
    const scan = Buffer.alloc(3 * 1024 * 1024, 7);
    const field = page.getByTestId('file-field-task_input_scan');
    await field.locator('input[type=file]').setInputFiles({ name: 'scan.tiff', mimeType: 'image/tiff', buffer: scan });
    const bar = page.getByTestId('upload-progress');
    await bar.waitFor();
    const seen = new Set<number>();
    while (await bar.count()) {
      const value = await bar.evaluate((el) => (el as HTMLProgressElement).value).catch(() => null);
      if (value !== null) seen.add(Math.round(value * 10));
    }
    expect([...seen].some((v) => v > 0 && v < 10)).toBe(true);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    expect(await page.getByTestId('uploaded-file').textContent()).toContain('scan.tiff');

    await page.getByRole('button', { name: 'Send task' }).click();
    await page.waitForURL(/\/tasks\/tsk_\w+$/);
    const [delivery] = await agent.waitFor(1);
    const files = (delivery!.body as any).files as Array<{ url: string; size: number; filename: string }>;
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ filename: 'scan.tiff', size: scan.length });
    expect((await fetch(files[0]!.url)).status).toBe(200);

    const res = await fetch(`${server.url}/v1/tasks/${delivery!.body.taskId}/files?filename=page.png`, {
      method: 'POST',
      headers: { 'x-task-token': delivery!.body.taskToken, 'content-type': 'image/png' },
      body: PNG,
    });
    const resultFile = ((await res.json()) as any).data;
    expect((await callBack(delivery!, { result: { page: { $file: resultFile.id } } })).status).toBe(200);

    await page.locator('.status-line').getByText('completed').waitFor();
    const input = page.getByTestId('input-files');
    await input.getByText('scan.tiff').waitFor();
    expect(await input.textContent()).toContain('3.0 MiB');
    const result = page.getByTestId('result-files');
    await result.getByText('page.png').waitFor();
    expect(await result.textContent()).toContain('image/png');
    // The image is shown in the page.
    const image = result.getByRole('img', { name: 'page.png' });
    await image.waitFor();
    expect(await image.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(1);
    expect(suite.pageErrors).toEqual([]);
    await context.close();
  }, 120_000);
});
