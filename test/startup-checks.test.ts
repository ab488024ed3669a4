// `npm start` with a setting the operator must fix: a busy port, a database server that cannot be reached,
// a database that does not exist. Each is told in one line naming the setting, with exit code 2, before
// anything is built.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runCli, runMain } from './support/processes.js';
import { usingPostgres } from './support/database.js';
import { ConfigError, loadConfig } from '../src/config.js';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'startup-checks-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const oneLine = (text: string) => text.trim().split('\n');

describe.concurrent('start refused', () => {
  // A bad setting stops the start before anything is built: not even the data directory is made.
  it.each([
    [{ PORT: 'abc' }, 'PORT: expected a whole number from 0 to 65535, got "abc"'],
    [{ SECRET_KEY: 'abc' }, 'SECRET_KEY: expected 32 bytes written as 64 hex digits or base64 (make one with: openssl rand -hex 32)'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    [{ RUN_JOBS: 'maybe' }, 'RUN_JOBS: expected true or false, got "maybe"'],
    [{ DATABASE_URL: 'mysql://db/shop' }, 'DATABASE_URL: must be a postgresql:// URL'],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgresql://db/shop', ALLOW_SIMULATED_PAYMENTS: 'true' }, 'SECRET_KEY: required in production with DATABASE_URL'],
    // Open sign-up (the default) in production with no mail for sign-in links.
    [
      { NODE_ENV: 'production', ALLOW_SIMULATED_PAYMENTS: 'true' },
      'SMTP_URL: required in production while SIGNUP is open (sign-in links are mailed); set SMTP_URL, or SIGNUP=closed, or ALLOW_OPEN_SIGNUP_WITHOUT_MAIL=true for accounts with passkeys only',
    ],
    [{ ALLOW_OPEN_SIGNUP_WITHOUT_MAIL: 'sure' }, 'ALLOW_OPEN_SIGNUP_WITHOUT_MAIL: expected true or false, got "sure"'],
  ])('%o: one line naming the setting and what it expects, exit 2, nothing built', async (env, line) => {
    const fresh = path.join(dataDir, `never-${Object.keys(env).join('-')}`);
    const run = await runMain({ ...env, DATA_DIR: fresh, LOG_LEVEL: (env as { LOG_LEVEL?: string }).LOG_LEVEL ?? 'info' });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(oneLine(run.stderr)).toEqual([line]);
    expect(existsSync(fresh)).toBe(false);
  }, 120_000);

  it('a busy port: one line naming PORT, exit 2, and no database built', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as net.AddressInfo;
    try {
      const run = await runMain({ PORT: String(port), DATA_DIR: dataDir });
      expect(run.code).toBe(2);
      expect(oneLine(run.stderr)).toEqual([`PORT: port ${port} on 127.0.0.1 is in use by another process; stop that process or set PORT to a free port`]);
      expect(existsSync(path.join(dataDir, 'pg'))).toBe(false);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  }, 120_000);

  it('a database server that refuses connections: one line naming DATABASE_URL without its password, exit 2', async () => {
    const port = await freePort();
    const run = await runMain({ DATABASE_URL: `postgresql://postgres:hunter2secret@127.0.0.1:${port}/shop`, DATA_DIR: dataDir });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toEqual([`DATABASE_URL: cannot use the database "shop" on 127.0.0.1:${port}: the server refused the connection (is PostgreSQL running there?)`]);
    expect(run.stdout + run.stderr).not.toContain('hunter2secret');
  }, 120_000);

  it.runIf(usingPostgres())('a database that does not exist on the server: one line naming DATABASE_URL, exit 2', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = '/no_such_database_here';
    const run = await runMain({ DATABASE_URL: url.toString(), DATA_DIR: dataDir });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      `DATABASE_URL: cannot use the database "no_such_database_here" on ${url.hostname}:${url.port || '5432'}: the database does not exist (create it, or name another)`,
    ]);
  }, 120_000);
});

describe('safe defaults', () => {
  it('the CLI says a bad setting in one line too, exit 2, no stack trace', async () => {
    const run = await runCli(['user', 'create', '--email', 'ops@example.com'], { NODE_ENV: 'production', ALLOW_SIMULATED_PAYMENTS: 'true', DATA_DIR: dataDir });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      'SMTP_URL: required in production while SIGNUP is open (sign-in links are mailed); set SMTP_URL, or SIGNUP=closed, or ALLOW_OPEN_SIGNUP_WITHOUT_MAIL=true for accounts with passkeys only',
    ]);
  }, 120_000);

  it('listens on loopback unless HOST says otherwise', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('production with open sign-up starts once sign-in links can be mailed, sign-up is closed, or the operator allows it', () => {
    const production = { NODE_ENV: 'production', ALLOW_SIMULATED_PAYMENTS: 'true' };
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(loadConfig({ ...production, SMTP_URL: 'smtp://mail.example.com:587' }).accounts.signup).toBe('open');
    expect(loadConfig({ ...production, SIGNUP: 'closed' }).accounts.signup).toBe('closed');
    expect(loadConfig({ ...production, ALLOW_OPEN_SIGNUP_WITHOUT_MAIL: 'true' }).accounts.allowOpenSignupWithoutMail).toBe(true);
  });
});
