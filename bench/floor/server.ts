// The floor: the smallest durable implementation of the task lifecycle this service runs, on `pg` and
// `node:http` alone, for bench/floor.ts to measure the service against. It keeps what makes the service
// durable and nothing else:
//   - every request looks its API key up in the database (by hash);
//   - POST /v1/tasks writes the task and its delivery job in one statement before answering 201, and
//     that statement's NOTIFY wakes the workers;
//   - workers claim jobs with FOR UPDATE SKIP LOCKED, sign the body (Standard Webhooks, HMAC-SHA256),
//     POST it to the agent, then record the attempt, remove the job and move the task in one statement;
//   - the agent's callback is authenticated by the task's token (an HMAC of its id) and moves the task
//     to completed with a conditional update.
// Not here: routing, payments, limits, validation beyond the minimum, retries with backoff, events.
//
// For the cost ledger (bench/ledger.ts): GET /ledger/bare answers before any routing, GET /ledger/auth
// looks the key up and answers; with WORKERS_START=later the workers start on POST /ledger/workers/start
// and stop (after their current job) on POST /ledger/workers/stop.
//
//   DATABASE_URL=… PORT=… AGENT_URL=… WEBHOOK_SECRET=whsec_… API_KEY=… node --import tsx bench/floor/server.ts
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) {
    console.error(`floor: ${name} is required`);
    process.exit(2);
  }
  return value;
};
const databaseUrl = env('DATABASE_URL');
const port = Number(env('PORT'));
const agentUrl = env('AGENT_URL');
const webhookSecret = env('WEBHOOK_SECRET');
const apiKey = env('API_KEY');
const workers = Number(process.env.WORKERS ?? 5);
const base = `http://127.0.0.1:${port}`;

const pool = new pg.Pool({ connectionString: databaseUrl, max: workers + 10 });
const tokenKey = randomBytes(32);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const taskToken = (id: string) => createHmac('sha256', tokenKey).update(id).digest('base64url');

const SCHEMA = `
CREATE SCHEMA IF NOT EXISTS floor;
CREATE TABLE IF NOT EXISTS floor.api_keys (key_hash text PRIMARY KEY, user_id text NOT NULL);
CREATE TABLE IF NOT EXISTS floor.tasks (
  id text PRIMARY KEY, requester_id text NOT NULL, title text NOT NULL, description text NOT NULL,
  capabilities text[] NOT NULL, input jsonb NOT NULL, status text NOT NULL, result jsonb,
  created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS floor.jobs (id bigserial PRIMARY KEY, task_id text NOT NULL, locked_until timestamptz);
CREATE TABLE IF NOT EXISTS floor.attempts (id bigserial PRIMARY KEY, task_id text NOT NULL, status int NOT NULL, at timestamptz NOT NULL DEFAULT now());
`;

async function setUp(): Promise<void> {
  await pool.query(SCHEMA);
  await pool.query('INSERT INTO floor.api_keys (key_hash, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [sha256(apiKey), 'usr_floor']);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function answer(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

async function createTask(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const key = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  const owner = key ? (await pool.query<{ user_id: string }>('SELECT user_id FROM floor.api_keys WHERE key_hash = $1', [sha256(key)])).rows[0] : undefined;
  if (!owner) return answer(res, 401, { error: { code: 'UNAUTHENTICATED' } });
  const body = JSON.parse(await readBody(req)) as { title: string; description: string; capabilities: string[]; input: unknown };
  const id = `tsk_${randomUUID()}`;
  await pool.query(
    `WITH t AS (
       INSERT INTO floor.tasks (id, requester_id, title, description, capabilities, input, status)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending') RETURNING id)
     INSERT INTO floor.jobs (task_id) SELECT t.id FROM t, (SELECT pg_notify('floor_jobs', '')) AS wake`,
    [id, owner.user_id, body.title, body.description, body.capabilities, JSON.stringify(body.input ?? null)],
  );
  answer(res, 201, { data: { id, status: 'pending' } });
}

async function callback(id: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const body = JSON.parse(await readBody(req)) as { taskToken?: string; result?: unknown };
  const expected = Buffer.from(taskToken(id));
  const given = Buffer.from(String(body.taskToken ?? ''));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return answer(res, 401, { error: { code: 'INVALID_TOKEN' } });
  const moved = await pool.query(
    `UPDATE floor.tasks SET status = 'completed', result = $2, updated_at = now() WHERE id = $1 AND status IN ('pending', 'in_progress') RETURNING id`,
    [id, JSON.stringify(body.result ?? null)],
  );
  if (moved.rowCount === 0) return answer(res, 409, { error: { code: 'INVALID_STATE' } });
  answer(res, 200, { data: { id, status: 'completed' } });
}

async function authOnly(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const key = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  const owner = key ? (await pool.query<{ user_id: string }>('SELECT user_id FROM floor.api_keys WHERE key_hash = $1', [sha256(key)])).rows[0] : undefined;
  if (!owner) return answer(res, 401, { error: { code: 'UNAUTHENTICATED' } });
  answer(res, 200, { data: [], nextCursor: null });
}

const bare = JSON.stringify({ data: [], nextCursor: null });
let working = false;
// Workers of an earlier start end when they see a new generation.
let generation = 0;
const server = http.createServer((req, res) => {
  if (req.url === '/ledger/bare') return void res.writeHead(200, { 'content-type': 'application/json' }).end(bare);
  if (req.method === 'POST' && (req.url === '/ledger/workers/start' || req.url === '/ledger/workers/stop')) {
    const start = req.url.endsWith('start');
    if (start && !working) startWorkers();
    if (!start) {
      working = false;
      generation++;
    }
    return void res.writeHead(204).end();
  }
  const callbackMatch = /^\/v1\/tasks\/([^/]+)\/callback$/.exec(req.url ?? '');
  const work =
    req.method === 'POST' && req.url === '/v1/tasks'
      ? createTask(req, res)
      : req.method === 'POST' && callbackMatch
        ? callback(callbackMatch[1]!, req, res)
        : req.url === '/ledger/auth'
          ? authOnly(req, res)
          : req.url === '/readyz'
          ? Promise.resolve(answer(res, 200, { ok: true }))
          : Promise.resolve(answer(res, 404, { error: { code: 'NOT_FOUND' } }));
  work.catch((error: Error) => {
    console.error(`floor: ${error.message}`);
    if (!res.headersSent) answer(res, 500, { error: { code: 'INTERNAL' } });
  });
});

// Standard Webhooks: HMAC-SHA256 of `id.timestamp.body` with the secret's base64 part.
function signatureHeaders(body: string): Record<string, string> {
  const id = `msg_${randomUUID()}`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const key = Buffer.from(webhookSecret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}

const delivery = new http.Agent({ keepAlive: true, maxSockets: workers });
function post(url: string, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', agent: delivery, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...signatureHeaders(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(10_000, () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

interface Claimed {
  job_id: string;
  id: string;
  title: string;
  description: string;
  capabilities: string[];
  input: unknown;
}

// One job: claimed (locked for a minute, so a crashed worker's job comes back), delivered, and settled.
async function runOne(): Promise<boolean> {
  const claimed = (
    await pool.query<Claimed>(
      `WITH j AS (
         UPDATE floor.jobs SET locked_until = now() + interval '1 minute'
         WHERE id = (SELECT id FROM floor.jobs WHERE locked_until IS NULL OR locked_until < now() ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1)
         RETURNING id, task_id)
       SELECT j.id AS job_id, t.id, t.title, t.description, t.capabilities, t.input FROM j JOIN floor.tasks t ON t.id = j.task_id`,
    )
  ).rows[0];
  if (!claimed) return false;
  const body = JSON.stringify({
    taskId: claimed.id,
    taskToken: taskToken(claimed.id),
    title: claimed.title,
    description: claimed.description,
    input: claimed.input,
    callbackUrl: `${base}/v1/tasks/${claimed.id}/callback`,
    capabilities: claimed.capabilities,
    priority: 'normal',
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  });
  const status = await post(agentUrl, body);
  const ok = status >= 200 && status < 300;
  // Success removes the job; a failure frees it to be claimed again.
  await pool.query(
    `WITH a AS (INSERT INTO floor.attempts (task_id, status) VALUES ($1, $2)),
          j AS (${ok ? 'DELETE FROM floor.jobs WHERE id = $3' : `UPDATE floor.jobs SET locked_until = now() + interval '1 second' WHERE id = $3`})
     UPDATE floor.tasks SET status = 'in_progress', updated_at = now() WHERE id = $1 AND status = 'pending' AND $4`,
    [claimed.id, status, claimed.job_id, ok],
  );
  return true;
}

let wake: () => void = () => {};
async function worker(own: number): Promise<void> {
  while (own === generation) {
    try {
      while (own === generation && (await runOne()));
    } catch (error) {
      console.error(`floor worker: ${(error as Error).message}`);
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1000);
      const previous = wake;
      wake = () => {
        clearTimeout(timer);
        previous();
        resolve();
      };
    });
  }
}

await setUp();
const listener = new pg.Client({ connectionString: databaseUrl });
await listener.connect();
await listener.query('LISTEN floor_jobs');
listener.on('notification', () => {
  const waiting = wake;
  wake = () => {};
  waiting();
});
function startWorkers(): void {
  working = true;
  const own = ++generation;
  for (let i = 0; i < workers; i++) void worker(own);
}
if (process.env.WORKERS_START !== 'later') startWorkers();
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
