// `npm run cli`: runs the CLI's bundle (scripts/bundle.mjs), rebuilt first when a source file is newer.
import { setFlagsFromString } from 'node:v8';
import { pathToFileURL } from 'node:url';
import { currentBundle } from './bundle.mjs';

// A command lives for a second or two: V8's optimising recompilation of the embedded database's WASM (in
// background threads) would cost more CPU than the command itself, so the baseline compiler's code is kept.
// Set before the bundle loads, so before any WASM is compiled.
setFlagsFromString('--liftoff-only');

await import(pathToFileURL(await currentBundle('cli')).href);
