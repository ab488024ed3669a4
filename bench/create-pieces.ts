// The service CPU of a task's create and callback, split into their pieces and measured in process on a
// scratch PostgreSQL database: each piece in a closed loop of one caller, its CPU time (process.cpuUsage,
// user + system) per call, the median of the rounds (round 0 warms up). What bench/ledger.ts's "create:
// authentication + the service call" and "callback" lines are made of, without HTTP or GraphQL.
//   npx tsx bench/create-pieces.ts [--calls 400] [--rounds 5] [--only auth,create,...] [--postgres URL]
//     [--replay] [--statements] [--reads] [--explain] [--idle SECONDS] [--index "tasks (agent_id, status)"]
// The pieces: select1 (a statement's round trip on the service's pool, for scale), auth (the API key's
// look-up), parse (createTask.parse of the JSON body), route (the routing read and its ranking), create
// (services.tasks.create: routing, the one-statement write, the answer), callback (services.tasks.callback
// with a result, on a task created and matched beforehand).
// --replay answers every statement from a recording of its first answer: the pieces' JS alone (services,
// stores, Kysely), without the driver, the socket and the database. --statements adds the CPU and wall
// time of each statement from its call to its answer; --reads then runs each read again on its own
// (through the service's Kysely and a bare pg pool), --explain prints their plans. --idle reports the
// process's CPU while it waits; --index measures each piece without and with an index, alternated.
import { parseArgs } from 'node:util';
import { percentile } from './measure.js';
import { registerAgent, scratchWorld } from './scratch.js';
import type { DatabaseConnection } from 'kysely';

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '400' },
    rounds: { type: 'string', default: '5' },
    only: { type: 'string' },
    // The statements answered from a recording of their first answers, not sent: the pieces' JS alone
    // (Kysely, the stores, the services), without the driver and the database.
    replay: { type: 'boolean', default: false },
    // The CPU from each statement's call to its answer (the driver, the socket, the answer's parsing),
    // by statement, over the measured calls.
    statements: { type: 'boolean', default: false },
    // The reads among them run again on their own, through the service's Kysely and through a bare pg pool,
    // alternated: what a read costs the driver apart from everything around it.
    reads: { type: 'boolean', default: false },
    // Seconds the process then sits idle, its CPU reported (the app's own background work).
    idle: { type: 'string', default: '0' },
    // The plans of the reads, as PostgreSQL ran them at the end (EXPLAIN ANALYZE).
    explain: { type: 'boolean', default: false },
    // An index to try: each piece is measured without it and with it, alternated round by round, e.g.
    // --index "tasks (agent_id, status)".
    index: { type: 'string' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});
const calls = Number(args.calls);
const rounds = Number(args.rounds);
const only = args.only ? new Set(args.only.split(',')) : null;
const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

const world = await scratchWorld(args.postgres!, 'pieces');
Object.assign(process.env, {
  DATABASE_URL: world.databaseUrl,
  DATA_DIR: world.dataDir,
  SECRET_KEY: world.secretKey,
  ALLOW_PRIVATE_ENDPOINTS: 'true',
  LOG_LEVEL: 'warn',
  PORT: '0',
});
try {
  // Loaded after the environment is set: the config reads it.
  const { loadConfig } = await import('../src/config.js');
  const { createLogger } = await import('../src/logger.js');
  const { openDatabase } = await import('../src/db/database.js');
  const { loadServerKey } = await import('../src/crypto/server-key.js');
  const { createApp } = await import('../src/app.js');
  const { authenticate } = await import('../src/services/accounts/authenticate.js');
  const { createTask } = await import('../src/services/task-input.js');
  const { taskRouting } = await import('../src/services/task-routing.js');
  const { findTask } = await import('../src/stores/task-store.js');
  const { createServices } = await import('../src/composition.js');
  const { CamelCasePlugin, Kysely, PostgresAdapter, PostgresDriver, PostgresIntrospector, PostgresQueryCompiler } = await import('kysely');
  const pg = (await import('pg')).default;
  const { sql } = await import('kysely');

  const config = loadConfig();
  const logger = createLogger('warn', { pretty: false });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, mode: 'own', preparedStatements: config.databasePreparedStatements, poolSize: config.databasePoolSize });
  const serverKey = await loadServerKey({ secretKey: config.secretKey, dataDir: config.dataDir });
  const app = await createApp({ config, database, logger, serverKey, runWorker: false });
  let { services } = app;
  // A Kysely like the service's (db/kysely.ts) whose connection records each statement's first answer by
  // its text and, once asked to, answers from the recording without sending anything.
  const recorded = new Map<string, unknown>();
  let replaying = false;
  const misses = new Set<string>();
  const missed = (text: string) => (misses.add(text), { rows: [] });
  const replayPool = new pg.Pool({ connectionString: config.databaseUrl!, max: 2 });
  const replaySql = new Kysely<import('../src/db/kysely.js').DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createQueryCompiler: () => new PostgresQueryCompiler(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createDriver: () => {
        const driver = new PostgresDriver({ pool: replayPool });
        const answering = {
          executeQuery: async (q: { sql: string }) => recorded.get(q.sql) ?? missed(q.sql),
          streamQuery: () => {
            throw new Error('no streams');
          },
        } as unknown as DatabaseConnection;
        return {
          init: () => driver.init(),
          destroy: () => driver.destroy(),
          beginTransaction: (c, s) => (replaying ? Promise.resolve() : driver.beginTransaction(c as never, s)),
          commitTransaction: (c) => (replaying ? Promise.resolve() : driver.commitTransaction(c as never)),
          rollbackTransaction: (c) => (replaying ? Promise.resolve() : driver.rollbackTransaction(c as never)),
          releaseConnection: (c) => (c === answering ? Promise.resolve() : driver.releaseConnection(c as never)),
          acquireConnection: async () => {
            if (replaying) return answering;
            const connection = await driver.acquireConnection();
            const execute = connection.executeQuery.bind(connection);
            connection.executeQuery = (async (q: { sql: string }) => {
              const result = await execute(q as never);
              if (!recorded.has(q.sql)) recorded.set(q.sql, result);
              return result;
            }) as typeof connection.executeQuery;
            return connection;
          },
        };
      },
    },
    plugins: [new CamelCasePlugin({ maintainNestedObjectKeys: true })],
  });
  const shapes = new Map<string, string>();
  let currentVariant = '';
  const captured = new Map<string, import('kysely').CompiledQuery>();
  const byStatement = new Map<string, { cpu: number; wall: number; n: number }>();
  let measuring = false;
  if (args.statements) {
    const executor = app.services.deps.sql.getExecutor();
    const execute = executor.executeQuery.bind(executor);
    executor.executeQuery = (async (q: { sql: string }) => {
      const cpu = process.cpuUsage();
      const started = performance.now();
      try {
        return await execute(q as never);
      } finally {
        const used = process.cpuUsage(cpu);
        const wall = performance.now() - started;
        const text = q.sql.replace(/\s+/g, ' ').slice(0, 70);
        const key = currentVariant ? `(${currentVariant}) ${text}` : text;
        if (/^select/.test(text) && !captured.has(key)) captured.set(key, q as never);
        if (!shapes.has(key)) shapes.set(key, `${q.sql.length} chars, ${(q as unknown as { parameters: unknown[] }).parameters.length} parameters`);
        const entry = byStatement.get(key) ?? { cpu: 0, wall: 0, n: 0 };
        if (measuring) byStatement.set(key, { cpu: entry.cpu + used.user + used.system, wall: entry.wall + wall * 1000, n: entry.n + 1 });
      }
    }) as typeof executor.executeQuery;
  }
  if (args.replay) services = createServices({ ...app.services.deps, sql: replaySql });
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  const owner = world.createUser('owner');
  const requester = world.createUser('requester');
  await registerAgent(base, owner.apiKey, { name: 'Pieces Echo', endpoint: 'http://127.0.0.1:9/agent', capability: 'pieces-echo' });

  const header = `Bearer ${requester.apiKey}`;
  const auth = () => authenticate(header, { accounts: services.accounts, oauth: services.oauth, verifyJwt: null, sessions: services.sessions }, '/v1/tasks');
  const viewer = (await auth()).viewer!;
  let sequence = 0;
  const body = () => JSON.stringify({ title: 'Echo', description: 'Echo the input back', capabilities: ['pieces-echo'], input: { n: ++sequence } });
  const routing = taskRouting(services.deps);
  const parsed = createTask.parse(JSON.parse(body()));

  // Tasks created and matched beforehand, each with its token, for the callbacks.
  const matched: { id: string; token: string }[] = [];
  const prepareCallbacks = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const { taskId } = await services.tasks.create(viewer, createTask.parse(JSON.parse(body())), null);
      matched.push({ id: taskId, token: services.tasks.tokenFor((await findTask(services.deps.sql, taskId))!)! });
    }
  };

  const pieces: Record<string, () => Promise<unknown>> = {
    // A statement's round trip on the service's pool, for scale.
    select1: () => sql`select 1`.execute(services.deps.sql),
    auth,
    parse: async () => createTask.parse(JSON.parse(body())),
    route: () => routing.choose(parsed),
    create: () => services.tasks.create(viewer, createTask.parse(JSON.parse(body())), null),
    callback: () => {
      const task = matched.pop()!;
      return services.tasks.callback(task.id, { taskToken: task.token, result: { echo: true } });
    },
  };
  if (args.replay) {
    // One of each call records its statements' answers.
    for (const call of Object.values(pieces)) {
      if (call === pieces.callback) await prepareCallbacks(1);
      await call();
    }
    replaying = true;
    matched.length = 0;
  }
  const chosen = Object.entries(pieces).filter(([name]) => !only || only.has(name));
  const variants = args.index ? ['without the index', 'with the index'] : [''];
  const label = (name: string, variant: string) => (variant ? `${name} (${variant})` : name);
  const figures = new Map<string, number[]>(chosen.flatMap(([name]) => variants.map((v) => [label(name, v), []] as [string, number[]])));
  const setIndex = async (on: boolean) => {
    await sql`DROP INDEX IF EXISTS bench_tried_index`.execute(app.services.deps.sql);
    if (on) await sql.raw(`CREATE INDEX bench_tried_index ON ${args.index}`).execute(app.services.deps.sql);
    await sql`ANALYZE tasks`.execute(app.services.deps.sql);
  };
  for (let round = 0; round <= rounds; round++) {
    // Alternated: which variant goes first changes every round.
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) {
      if (args.index) await setIndex(variant === 'with the index');
      currentVariant = variant;
      if (chosen.some(([name]) => name === 'callback')) await prepareCallbacks(calls);
      for (const [name, call] of chosen) {
        const cpu = process.cpuUsage();
        measuring = round > 0;
        for (let i = 0; i < calls; i++) await call();
        measuring = false;
        const used = process.cpuUsage(cpu);
        // Round 0 warms up.
        if (round > 0) figures.get(label(name, variant))!.push((used.user + used.system) / calls);
      }
    }
  }
  for (const [name, values] of figures) console.log(`${name.padEnd(30)} ${median(values).toFixed(0).padStart(6)} µs CPU per call  (rounds: ${values.map((v) => v.toFixed(0)).join(' ')})`);
  if (Number(args.idle) > 0) {
    const c = process.cpuUsage();
    await new Promise((r) => setTimeout(r, Number(args.idle) * 1000));
    const u = process.cpuUsage(c);
    console.log(`idle: ${((u.user + u.system) / Number(args.idle) / 1000).toFixed(1)} ms CPU per second`);
  }
  if (args.explain) {
    const bare = new pg.Pool({ connectionString: config.databaseUrl!, max: 1 });
    for (const [key, query] of captured) {
      const plan = await bare.query(`EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`, query.parameters as unknown[]);
      console.log(`plan of ${key}:\n${plan.rows.map((r: Record<string, string>) => `  ${r['QUERY PLAN']}`).join('\n')}`);
    }
    await bare.end();
  }
  if (args.reads) {
    const bare = new pg.Pool({ connectionString: config.databaseUrl!, max: 2 });
    for (const [key, query] of captured) {
      const ways: [string, () => Promise<unknown>][] = [
        ['Kysely', () => app.services.deps.sql.executeQuery(query)],
        ['bare pg', () => bare.query(query.sql, query.parameters as unknown[])],
      ];
      const cpu: Record<string, number[]> = { Kysely: [], 'bare pg': [] };
      for (let round = 0; round < 4; round++)
        for (const [name, run] of ways) {
          measuring = false;
          const c = process.cpuUsage();
          for (let i = 0; i < 300; i++) await run();
          const u = process.cpuUsage(c);
          if (round > 0) cpu[name]!.push((u.user + u.system) / 300);
        }
      console.log(`read ${key}: Kysely ${median(cpu.Kysely!).toFixed(0)} µs, bare pg ${median(cpu['bare pg']!).toFixed(0)} µs`);
    }
    await bare.end();
  }
  for (const [text, { cpu, wall, n }] of byStatement) console.log(`${(cpu / n).toFixed(0).padStart(6)} µs CPU ${(wall / n).toFixed(0).padStart(6)} µs wall x ${n}  ${text} (${shapes.get(text)})`);
  if (misses.size) console.log('not recorded:', [...misses].map((m) => m.slice(0, 120)));
  console.log(`${recorded.size} statements recorded`);
  await replaySql.destroy();
  await app.close();
  await database.close();
} finally {
  await world.drop();
}
