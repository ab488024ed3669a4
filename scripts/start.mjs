// `npm start`: runs the service's bundle (scripts/bundle.mjs), rebuilt first when a source file is newer.
// The bundle runs in this process, so signals and the exit code are the service's own. Every way of
// running the service starts it here (the image, scripts/check-production.sh, the benchmarks, the tests'
// processes), so its V8 flags are set here, once.
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { currentBundle } from './bundle.mjs';
import { flagsToSet } from './v8-flags.mjs';

// Set before the bundle loads, a flag acts as on node's command line, except flags V8 reads only when it
// sizes its heap (scripts/v8-flags.mjs); a flag given there or in NODE_OPTIONS wins
// (`node --optimize-for-size --heap-growing-percent=0 scripts/start.mjs`; node accepts only some V8
// flags in NODE_OPTIONS, and neither of those).
for (const flag of flagsToSet(process.execArgv, process.env.NODE_OPTIONS)) v8.setFlagsFromString(flag);

// glibc's malloc settings (MALLOC_ARENA_MAX=1, MALLOC_TRIM_THRESHOLD_ at 128 KiB, MALLOC_MMAP_THRESHOLD_ at
// 32 KiB: tens of MB less resident) must be in the environment before the process starts, since glibc reads them
// once: `npm start` (package.json) and the image (Dockerfile) set them; values already set win
// (docs/operations.md, "Memory").
await import(pathToFileURL(await currentBundle('service')).href);
