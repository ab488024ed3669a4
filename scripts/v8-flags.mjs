// The V8 flags the service runs with, stated once: scripts/start.mjs sets them before the bundle loads
// (so `npm start`, the image and every process started through it get them), and the cost ledger gives
// them to its service process on node's command line.
//
// --optimize-for-size: V8 collects the old generation sooner and keeps smaller young-generation spaces,
// about 30 MB less resident on PostgreSQL, idle or busy (docs/benchmarks.md, "Install and memory").
export const V8_FLAGS = ['--optimize-for-size'];

// A flag's name without its value or `no-`, so `--no-optimize-for-size` and `--optimize_for_size` name
// the same flag.
export const flagName = (flag) => flag.replace(/^--(no-)?/, '').split('=')[0].replaceAll('_', '-');
