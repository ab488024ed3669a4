// GraphiQL renders in a real browser with every non-local request blocked: its script, styles and
// editor workers come from this server, not a CDN. Needs Debian's chromium (see
// support/browser.ts for when it is skipped).
import { inflateSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { testWith } from './support/fixtures.js';
import { browserSuite } from './support/browser.js';

// Distinct colours in a PNG screenshot (8-bit RGB/RGBA, as Chromium writes them): a blank page has one.
function distinctColours(png: Buffer): number {
  let offset = 8;
  let width = 0;
  let channels = 4;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      channels = body[9] === 2 ? 3 : 4;
    }
    if (type === 'IDAT') data.push(body);
    offset += length + 12;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const colours = new Set<number>();
  let previous = Buffer.alloc(stride);
  for (let row = 0; row * (stride + 1) < raw.length; row++) {
    const filter = raw[row * (stride + 1)]!;
    const line = Buffer.from(raw.subarray(row * (stride + 1) + 1, (row + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? line[i - channels]! : 0;
      const up = previous[i]!;
      const upLeft = i >= channels ? previous[i - channels]! : 0;
      const paeth = () => {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      };
      const add = [0, left, up, (left + up) >> 1, paeth()][filter] ?? 0;
      line[i] = (line[i]! + add) & 0xff;
    }
    for (let i = 0; i < stride; i += channels) colours.add((line[i]! << 16) | (line[i + 1]! << 8) | line[i + 2]!);
    previous = line;
  }
  return colours.size;
}

const test = testWith({ serverEnv: { NODE_ENV: 'development' } });
// GraphiQL is served by the service itself: no dashboard to build.
const suite = browserSuite('graphiql-browser.test.ts', { test, dashboard: false });

suite.describe('GraphiQL offline', () => {
  it('renders the editor with every non-local request blocked', async () => {
    const { server, browser } = suite;
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const blocked: string[] = [];
    const local = new URL(server.url).host;
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.host === local || url.protocol === 'blob:' || url.protocol === 'data:') return route.continue();
      blocked.push(url.href);
      return route.abort();
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const response = await page.goto(`${server.url}/graphql`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(await response?.text()).not.toMatch(/unpkg\.com|jsdelivr/);
    // The query editor (Monaco) and the run button appear only once the bundle has loaded and run.
    await page.waitForSelector('.graphiql-container', { timeout: 30_000 });
    await page.waitForSelector('.graphiql-editor .monaco-editor, .graphiql-query-editor .monaco-editor, .monaco-editor', { timeout: 30_000 });
    await page.waitForSelector('.graphiql-execute-button', { timeout: 30_000 });
    const shot = await page.screenshot();
    expect(distinctColours(shot)).toBeGreaterThan(20);
    expect(blocked).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);

  it('serves the assets with a long cache lifetime and 404s unknown ones', async () => {
    const { server } = suite;
    const html = await (await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } })).text();
    const css = /href="(\/graphiql-assets\/[^"]+\.css)"/.exec(html)![1]!;
    const res = await fetch(server.url + css);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${server.url}/graphiql-assets/nope.js`)).status).toBe(404);
  });
});
