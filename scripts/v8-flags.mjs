// The V8 flags the service runs with, stated once: scripts/start.mjs sets them before the bundle loads
// (so `npm start`, the image and every process started through it get them), and the cost ledger gives
// them to its service process on node's command line.
//
// --semi-space-growth-factor=1: the young generation stays at its first size, 1 MB (set here, after V8
// has sized its heap, `--max-semi-space-size=1` would be ignored; the growth factor is read at each
// scavenge). --heap-growing-percent=30: the old generation's next limit is 30 % above what the last full
// collection kept, instead of a factor V8 picks from how fast it collects. With malloc's mmap threshold
// at 32 KiB (package.json, the Dockerfile) they hold as much after 200 tasks as `--optimize-for-size` did
// with 128 KiB (155-164 MB against 144-175), for 41-60 % less CPU per task in the cost ledger
// (docs/benchmarks.md, "Malloc's free memory and the V8 flag").
// A flag on node's command line or in NODE_OPTIONS wins: `node --optimize-for-size --heap-growing-percent=0
// scripts/start.mjs` holds about 20 MB less after 200 tasks for that CPU.
export const V8_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=30'];

// A flag's name without its value or `no-`, so `--no-optimize-for-size` and `--optimize_for_size` name
// the same flag.
const flagName = (flag) => flag.replace(/^--(no-)?/, '').split('=')[0].replaceAll('_', '-');

// The service's flags that neither node's command line nor NODE_OPTIONS set already: what is given there wins.
export function flagsToSet(execArgv, nodeOptions = '') {
  const given = [...execArgv, ...nodeOptions.split(/\s+/).filter(Boolean)].map(flagName);
  return V8_FLAGS.filter((flag) => !given.includes(flagName(flag)));
}
