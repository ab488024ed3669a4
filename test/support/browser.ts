// Where the browser tests find Debian's chromium (playwright-core never downloads one). Under CI a
// missing browser is an error, since .ci/run installs it; elsewhere the browser tests are skipped with
// the reason printed, so `npm test` passes on a machine without chromium.
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumPresent(testFile: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  const reason = `no chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI === 'true') throw new Error(`${testFile}: ${reason}`);
  // eslint-disable-next-line no-console -- the reason for skipping must be visible in the run
  console.warn(`${testFile} skipped: ${reason}`);
  return false;
}
