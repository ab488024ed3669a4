// The V8 flags the service runs with, stated once: scripts/start.mjs sets them before the bundle loads
// (so `npm start`, the image and every process started through it get them), and the cost ledger gives
// them to its service process on node's command line.
//
// --optimize-for-size: V8 collects the old generation sooner and keeps smaller young-generation spaces:
// 20-30 MB less resident on PostgreSQL after 200 tasks, for 15-30 % more CPU per request on Node 24
// (docs/benchmarks.md, "The V8 flag on Node 24"). Memory is what issue 36 bounds, so it stays on;
// NODE_OPTIONS=--no-optimize-for-size turns it off.
export const V8_FLAGS = ['--optimize-for-size'];

// A flag's name without its value or `no-`, so `--no-optimize-for-size` and `--optimize_for_size` name
// the same flag.
const flagName = (flag) => flag.replace(/^--(no-)?/, '').split('=')[0].replaceAll('_', '-');

// The service's flags that neither node's command line nor NODE_OPTIONS set already: what is given there wins.
export function flagsToSet(execArgv, nodeOptions = '') {
  const given = [...execArgv, ...nodeOptions.split(/\s+/).filter(Boolean)].map(flagName);
  return V8_FLAGS.filter((flag) => !given.includes(flagName(flag)));
}
