// `npm run cli`: runs the CLI's bundle (scripts/bundle.mjs), rebuilt first when a source file is newer.
import { pathToFileURL } from 'node:url';
import { currentBundle } from './bundle.mjs';

await import(pathToFileURL(await currentBundle('cli')).href);
