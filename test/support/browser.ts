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
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, onTestFailed } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { usingPostgres } from './database.js';
import { projectRoot } from './processes.js';
import type { TestServer } from './server.js';

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

// What the suite needs of a file's fixtures (fixtures.ts's `test`, or one derived with testWith…).
interface ServerFixtures {
  beforeAll(fn: (fixtures: { server: TestServer }) => Promise<void>, timeout?: number): void;
}

export interface BrowserSuite {
  // describe, skipped where runsBrowserTests says so.
  describe(name: string, body: () => void): void;
  // Read from the first test on (the hooks fill them in).
  readonly browser: Browser;
  // The file's service, the `server` fixture (only where the suite was given the fixtures).
  readonly server: TestServer;
  // The service at localhost rather than 127.0.0.1: WebAuthn needs a secure context with a domain name,
  // and it is the service's public address (PUBLIC_BASE_URL's default), which its links and metadata name.
  readonly site: string;
  // Scripts' errors and what the Content-Security-Policy refused, on every page newPage opened.
  readonly pageErrors: string[];
  // A page in a context of its own (`options` are the context's). With `failureShot`, a test that fails
  // leaves a picture of the page in test-artifacts/<failureShot>.png.
  newPage(options?: BrowserContextOptions & { failureShot?: string }): Promise<{ context: BrowserContext; page: Page }>;
}

/**
 * A test file's browser: chromium launched before its tests and closed after them, once for the file,
 * with the dashboard built first (`dashboard: false` for a file that never opens it). Given the file's
 * fixtures, the file's service is started with it. Where the browser tests do not run (runsBrowserTests),
 * nothing starts and `describe` skips.
 */
export function browserSuite(testFile: string, opts: { test?: ServerFixtures; dashboard?: boolean } = {}): BrowserSuite {
  const present = runsBrowserTests(testFile);
  let browser: Browser | undefined;
  let server: TestServer | undefined;
  const pageErrors: string[] = [];
  const launch = async () => {
    if (opts.dashboard !== false) await buildWeb();
    browser = await launchChromium();
  };
  if (present) {
    if (opts.test) {
      opts.test.beforeAll(async ({ server: started }) => {
        server = started;
        await launch();
      }, 120_000);
    } else {
      beforeAll(launch, 120_000);
    }
    afterAll(async () => {
      await browser?.close();
    });
  }
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${testFile}: no ${what} (read it in a test or hook, of a suite given the fixtures)`);
    return value;
  };
  return {
    describe: (name, body) => describe.skipIf(!present)(name, body),
    get browser() {
      return started(browser, 'browser');
    },
    get server() {
      return started(server, 'service');
    },
    get site() {
      return `http://localhost:${new URL(started(server, 'service').url).port}`;
    },
    pageErrors,
    async newPage(options = {}) {
      const { failureShot, ...contextOptions } = options;
      const context = await started(browser, 'browser').newContext(contextOptions);
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) pageErrors.push(message.text());
      });
      if (failureShot) {
        onTestFailed(async () => {
          await mkdir(path.join(projectRoot, 'test-artifacts'), { recursive: true });
          await page.screenshot({ path: path.join(projectRoot, 'test-artifacts', `${failureShot}.png`), fullPage: true }).catch(() => {});
        });
      }
      return { context, page };
    },
  };
}

// Signs in on the dashboard at `url` with an API key, as a person pastes one into the sign-in page.
export async function signInWithKey(page: Page, url: string, apiKey: string): Promise<void> {
  await page.goto(`${url}/sign-in`);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${url}/tasks`);
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

// The dashboard walked page by page, on the suite's browser and service; its pages' errors land in the
// suite's pageErrors.
export function pageWalk(suite: BrowserSuite, opts: { name: string; shots: string }): PageWalk {
  return {
    async open(viewport, apiKey) {
      const { page } = await suite.newPage({ viewport, locale: 'en-US', failureShot: `${opts.name}-${viewport.width}` });
      if (apiKey) await signInWithKey(page, suite.server.url, apiKey);
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
