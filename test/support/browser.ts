// Where the browser tests find Debian's chromium (playwright-core never downloads one). Under CI a
// missing browser is an error, since .ci/run installs it; elsewhere the browser tests are skipped with
// the reason printed, so `npm test` passes on a machine without chromium.
//
// They run in the suite's run on the embedded database only. Their subject is the pages (what they show,
// accessibility, the keyboard, live updates as the browser sees them); every request the pages make is
// tested on a PostgreSQL server by the API tests of that run. Repeating them there cost a fifth of it.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect, onTestFailed } from 'vitest';
import { usingPostgres } from './database.js';
import { projectRoot } from './processes.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function runsBrowserTests(testFile: string): boolean {
  if (usingPostgres()) return false;
  if (existsSync(CHROMIUM)) return true;
  const reason = `no chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI === 'true') throw new Error(`${testFile}: ${reason}`);
  // eslint-disable-next-line no-console -- the reason for skipping must be visible in the run
  console.warn(`${testFile} skipped: ${reason}`);
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

// The widths a page walk looks at each page in.
export const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 860 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

export interface PageWalk {
  // A new page of its own context at this size, signed in with the API key if one is given; a test that
  // fails leaves a picture of it in test-artifacts/<name>-<width>.png.
  open(viewport: { width: number; height: number }, apiKey?: string): Promise<Page>;
  // Accessible, no wider than the window (no cut or hidden columns), and pictured as <shots>/<shot>.png.
  check(page: Page, shot: string): Promise<void>;
}

// The dashboard walked page by page. `site` is read when a page opens (the browser and the service are
// started in beforeAll); scripts' errors and refused Content-Security-Policy land in `pageErrors`.
export function pageWalk(opts: { name: string; shots: string; site: () => { browser: Browser; url: string }; pageErrors: string[] }): PageWalk {
  return {
    async open(viewport, apiKey) {
      const { browser, url } = opts.site();
      const context = await browser.newContext({ viewport, locale: 'en-US' });
      const page = await context.newPage();
      page.on('pageerror', (error) => opts.pageErrors.push(error.message));
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) opts.pageErrors.push(message.text());
      });
      onTestFailed(async () => {
        await mkdir(path.join(projectRoot, 'test-artifacts'), { recursive: true });
        await page.screenshot({ path: path.join(projectRoot, 'test-artifacts', `${opts.name}-${viewport.width}.png`), fullPage: true }).catch(() => {});
      });
      if (apiKey) {
        await page.goto(`${url}/sign-in`);
        await page.getByLabel('API key').fill(apiKey);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.waitForURL(`${url}/tasks`);
      }
      return page;
    },
    async check(page, shot) {
      expect(await axeViolations(page), `axe on ${shot}`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `sideways scrolling on ${shot}`).toBe(0);
      await mkdir(opts.shots, { recursive: true });
      await page.screenshot({ path: path.join(opts.shots, `${shot}.png`), fullPage: true });
    },
  };
}

// An accessibility check of the page as it is now with axe-core: every serious or critical violation
// is returned as one line (rule, impact, the first offending elements), so a test can expect none.
// axe is evaluated through the DevTools protocol, which the page's Content-Security-Policy does not
// govern (an injected <script> would be refused, as it should be).

let axeSource: string | null = null;

export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  const present = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!present) await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)) }));
  });
  return results
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}

// Presses Tab until the element the locator names has the focus (keyboard-only use), at most `max` times.
export async function tabTo(page: Page, target: ReturnType<Page['locator']>, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}
