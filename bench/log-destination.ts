// The CPU an access line costs the process by where pino writes it: pino's default destination (an
// asynchronous SonicBoom, each write handed to libuv's thread pool) against the logger's synchronous one
// (src/logger.ts), and no line at all, alternated batch by batch in one process. One line per turn of the
// event loop, each turn woken by a timer as a request is by its socket; CPU of the whole process
// (process.cpuUsage: the pool's threads too) per line, less the turn without a line.
//
//   npx tsx bench/log-destination.ts [--lines 1500] [--rounds 6] | cat > /dev/null
//
// Standard output must be a pipe or a file (as a service's is under a supervisor); the figures go to stderr.
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { percentile } from './measure.js';

const { values: args } = parseArgs({ options: { lines: { type: 'string', default: '1500' }, rounds: { type: 'string', default: '6' } } });
const lines = Number(args.lines);
const rounds = Number(args.rounds);
if (process.stdout.isTTY) {
  console.error('standard output is a terminal: pipe it (| cat > /dev/null)');
  process.exit(2);
}

const options = { level: 'info', base: undefined };
const loggers = {
  none: null,
  async: pino(options),
  sync: pino(options, pino.destination({ dest: 1, sync: true })),
};
type Name = keyof typeof loggers;
const line = { reqId: '3b241101-e2bb-4255-8caf-4136c566a962', method: 'GET', route: '/v1/tasks', status: 200, ms: 1.3, principal: 'usr_0123456789' };

const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function batch(name: Name): Promise<number> {
  const logger = loggers[name];
  const start = cpuUs();
  for (let i = 0; i < lines; i++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    logger?.info(line, 'request');
  }
  // The last writes' completions land within the batch.
  await new Promise((resolve) => setTimeout(resolve, 20));
  return (cpuUs() - start) / lines;
}

const results: Record<Name, number[]> = { none: [], async: [], sync: [] };
const names: Name[] = ['none', 'async', 'sync'];
await batch('async');
await batch('sync');
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 ? [...names].reverse() : names) results[name].push(await batch(name));
}
const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
const base = median(results.none);
console.error(`a turn of the loop without a line: ${base.toFixed(1)} µs CPU (median of ${rounds} batches of ${lines})`);
for (const name of ['async', 'sync'] as const) {
  console.error(`${name}: ${(median(results[name]) - base).toFixed(1)} µs CPU per line more (batches: ${results[name].map((v) => (v - base).toFixed(1)).join(', ')})`);
}
