// Where the browser tests find Debian's chromium (playwright-core never downloads one). Under CI a
// missing browser is an error, since .ci/run installs it; elsewhere the browser tests are skipped with
// the reason printed, so `npm test` passes on a machine without chromium.
//
// They run in the suite's run on the embedded database only. Their subject is the pages (what they show,
// accessibility, the keyboard, live updates as the browser sees them); every request the pages make is
// tested on a PostgreSQL server by the API tests of that run. Repeating them there cost a fifth of it.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { usingPostgres } from './database.js';

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
