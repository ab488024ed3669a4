// What REST's execution of a route costs between the router and the service call, in process: the
// handler of GET /v1/tasks?limit=1 and POST /v1/tasks (body read, checks, context, the GraphQL run, the
// answer written) with the service calls answered from a result captured once, so no statement runs.
// With --base, a second copy of the sources (e.g. the previous commit's, extracted into tmp/) is loaded
// beside this one and the two are alternated batch by batch: old and new in one process, CPU time, and
// the difference taken pair by pair (the machine is shared; unpaired medians of an A/A run differ by
// tens of µs, paired ones by ~8). --http adds the same requests through the app's server on loopback
// (router, admission, the API key's look-up; the in-process client's CPU too), /healthz, and the
// look-up alone.
//
//   npx tsx bench/rest-execution.ts [--base tmp/base] [--requests 200] [--rounds 41] [--http] [--only list,create] [--postgres URL]
//
// Extract a base:  mkdir -p tmp/base && git archive HEAD src | tar -x -C tmp/base && cp -r src/generated tmp/base/src/
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    base: { type: 'string' },
    requests: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '41' },
    http: { type: 'boolean', default: false },
    // Some kinds only (to profile one): e.g. --only httpList
    only: { type: 'string' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});
const requests = Number(args.requests);
const rounds = Number(args.rounds);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const CREATE_BODY = JSON.stringify({ title: 'Summarise', description: 'Summarise the attached text', input: { text: 'hello' }, capabilities: ['summarize'], maxPriceCents: 100 });

interface Probe {
  name: string;
  list(): Promise<string>;
  create(): Promise<string>;
  // The same through the app's server on loopback (router, admission, authentication; the client's CPU too).
  health?(): Promise<string>;
  // The API key's look-up alone (what admission does before the route runs).
  auth?(): Promise<string>;
  httpList?(): Promise<string>;
  httpCreate?(): Promise<string>;
}

const http = await import('node:http');
function send(agent: InstanceType<typeof http.Agent>, url: string, method: string, key: string, body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    const req = http.request(url, { method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve(`${res.statusCode} ${text}`));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// A request as the router hands it over: the body as a stream, a response that keeps what is written.
function call(method: string, url: string, key: string, body?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, host: 'localhost' };
  if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  const req = Object.assign(Readable.from(body ? [Buffer.from(body)] : []), { method, url, headers });
  let written = '';
  let status = 0;
  const res = {
    statusCode: 200,
    writeHead(s: number) {
      status = s;
      return res;
    },
    setHeader() {},
    end(text?: string) {
      written = text ?? '';
    },
  };
  return { req, res, result: () => `${status} ${written}` };
}

async function probeOf(root: string, name: string, databaseUrl: string): Promise<Probe> {
  const src = path.resolve(root, 'src');
  const { loadConfig } = await import(`${src}/config.js`);
  const { createLogger } = await import(`${src}/logger.js`);
  const { openDatabase } = await import(`${src}/db/database.js`);
  const { createApp } = await import(`${src}/app.js`);
  const { authenticate } = await import(`${src}/services/accounts/authenticate.js`);
  const { createTask } = await import(`${src}/services/task-input.js`);
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '0' });
  const database = await openDatabase({ databaseUrl, dataDir: '/nonexistent', mode: 'own', preparedStatements: true, poolSize: 2 });
  const app = await createApp({ config, database, logger: createLogger('silent'), serverKey: randomBytes(32), runWorker: false });
  const { services } = app;
  const { apiKey } = await services.accounts.createUser({ email: `${name}-${randomBytes(3).toString('hex')}@example.com` });
  const auth = await authenticate(`Bearer ${apiKey}`, { accounts: services.accounts, oauth: services.oauth, verifyJwt: null, sessions: services.sessions }, '/v1/tasks');
  // The service calls answered from one real result each.
  const created = await services.tasks.create(auth.viewer, createTask.parse(JSON.parse(CREATE_BODY)), null);
  const page = await services.tasks.list(auth.viewer, { role: 'requester', status: null, limit: 1, cursor: null });
  services.tasks.create = async () => created;
  services.tasks.list = async () => page;
  const route = (method: string) => app.routes.find((r: { method: string; path: string }) => r.method === method && r.path === '/v1/tasks');
  const run = async (method: string, url: string, body?: string) => {
    const c = call(method, url, apiKey, body);
    const parsed = new URL(url, 'http://localhost');
    await route(method).handle({ req: c.req, res: c.res, url: parsed, params: {}, authentication: auth, charge: async () => true });
    return c.result();
  };
  const probe: Probe = { name, list: () => run('GET', '/v1/tasks?limit=1'), create: () => run('POST', '/v1/tasks', CREATE_BODY) };
  if (args.http) {
    const { url: base } = await app.listen(0, '127.0.0.1');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    probe.auth = async () => String((await authenticate(`Bearer ${apiKey}`, { accounts: services.accounts, oauth: services.oauth, verifyJwt: null, sessions: services.sessions }, '/v1/tasks')).viewer.id);
    probe.health = () => send(agent, `${base}/healthz`, 'GET', apiKey);
    probe.httpList = () => send(agent, `${base}/v1/tasks?limit=1`, 'GET', apiKey);
    probe.httpCreate = () => send(agent, `${base}/v1/tasks`, 'POST', apiKey, CREATE_BODY);
  }
  return probe;
}

const admin = new pg.Client({ connectionString: args.postgres });
await admin.connect();
const scratch = `bench_rest_${randomBytes(4).toString('hex')}`;
await admin.query(`CREATE DATABASE ${scratch}`);
try {
  const url = new URL(args.postgres!);
  url.pathname = `/${scratch}`;
  const probes = [await probeOf('.', 'new', url.toString())];
  if (args.base) probes.unshift(await probeOf(args.base, 'old', url.toString()));
  for (const p of probes) {
    const [list, create] = [await p.list(), await p.create()];
    if (!list.startsWith('200') || !create.startsWith('201')) throw new Error(`${p.name}: ${list.slice(0, 300)} / ${create.slice(0, 300)}`);
    console.log(`${p.name}: list ${list.length} bytes, create ${create.length} bytes`);
  }
  const kinds = (args.http ? ['list', 'create', 'auth', 'health', 'httpList', 'httpCreate'] : ['list', 'create']) as ('list' | 'create' | 'auth' | 'health' | 'httpList' | 'httpCreate')[];
  if (args.only) kinds.splice(0, kinds.length, ...kinds.filter((k) => args.only!.split(',').includes(k)));
  const figures = new Map(probes.map((p) => [p.name, Object.fromEntries(kinds.map((k) => [k, [] as number[]]))]));
  // Old and new of one kind back to back, in alternating order, so each pair of batches saw the same load
  // of the (shared) machine; the difference is taken pair by pair.
  for (let round = 0; round < rounds + 1; round++) {
    for (const kind of kinds) {
      for (const p of round % 2 ? [...probes].reverse() : probes) {
        const cpu = process.cpuUsage();
        for (let i = 0; i < requests; i++) await p[kind]!();
        const used = process.cpuUsage(cpu);
        // The first round warms up.
        if (round > 0) figures.get(p.name)![kind]!.push((used.user + used.system) / requests);
      }
    }
  }
  console.log(`µs of CPU per request, medians of ${rounds} rounds of ${requests} (list: GET /v1/tasks?limit=1, create: POST /v1/tasks; http*: through the server on loopback, the client included)`);
  for (const [name, f] of figures) console.log(`${name}: ${kinds.map((k) => `${k} ${median(f[k]!).toFixed(1)}`).join(', ')}`);
  if (probes.length === 2) {
    const [old, now] = [figures.get('old')!, figures.get('new')!];
    const paired = (k: string) => median(now[k]!.map((v, i) => v - old[k]![i]!));
    console.log(`new − old, median of the paired rounds: ${kinds.map((k) => `${k} ${paired(k).toFixed(1)}`).join(', ')}`);
  }
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
  await admin.end();
}
// The apps' pools and timers are left to the exit.
process.exit(0);
