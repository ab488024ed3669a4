// `npm start`: runs the service's bundle (scripts/bundle.mjs), rebuilt first when a source file is newer.
// The bundle runs in this process, so signals and the exit code are the service's own.
import { pathToFileURL } from 'node:url';
import { currentBundle } from './bundle.mjs';

await import(pathToFileURL(await currentBundle('service')).href);
