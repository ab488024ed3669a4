// What the HTTP benchmarks set up on a PostgreSQL server before they measure: a scratch database and data
// directory of their own, the service's secret key, users with API keys made by the CLI, and the JSON calls
// that register an agent. `drop()` removes the database and the directory.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface ScratchWorld {
  name: string;
  databaseUrl: string;
  dataDir: string;
  secretKey: string;
  // A user with an API key, made by the CLI on the scratch database (`role` names its address).
  createUser(role: string): { id: string; apiKey: string };
  drop(): Promise<void>;
}

export async function scratchWorld(serverUrl: string, prefix: string): Promise<ScratchWorld> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const name = `bench_${prefix}_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const dataDir = await mkdtemp(path.join(tmpdir(), `bench-${prefix}-`));
  const secretKey = randomBytes(32).toString('hex');
  const cliEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SECRET_KEY: secretKey };
  return {
    name,
    databaseUrl,
    dataDir,
    secretKey,
    createUser: (role) =>
      JSON.parse(
        execFileSync(process.execPath, ['scripts/cli.mjs', 'user', 'create', '--email', `${role}-${name}@example.com`, '--json'], { env: cliEnv, encoding: 'utf8' }),
      ) as { id: string; apiKey: string },
    async drop() {
      await rm(dataDir, { recursive: true, force: true });
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

// The JSON body of an answer that must be a success.
export async function okJson(res: Response): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${res.status}: ${JSON.stringify(body)}`);
  return body;
}

// A free webhook agent offering one capability, registered over REST under the owner's key, with the
// webhook secret its deliveries are signed with. `send` is fetch, or a caller's retrying fetch.
export async function registerAgent(
  base: string,
  ownerKey: string,
  agent: { name: string; endpoint: string; capability: string },
  send: (url: string, init: RequestInit) => Promise<Response> = fetch,
): Promise<{ agentId: string; webhookSecret: string }> {
  const body = JSON.stringify({ name: agent.name, endpoint: agent.endpoint, capabilities: [agent.capability], priceCents: 0 });
  const created = await okJson(await send(`${base}/v1/agents`, { method: 'POST', headers: bearer(ownerKey), body }));
  const agentId = (created.data as { id: string }).id;
  const secret = await okJson(await send(`${base}/v1/agents/${agentId}/webhook-secret`, { method: 'POST', headers: bearer(ownerKey) }));
  return { agentId, webhookSecret: secret.webhookSecret as string };
}
