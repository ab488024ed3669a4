import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger } from 'pino';
import { currentRequest } from './request-context.js';

export type { Logger };

// Credentials may appear in request headers and bodies; they are cut out of every log line.
const redact = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.authorization',
  '*.apiKey',
  '*.webhookSecret',
  '*.taskToken',
  '*.secret',
  '*.password',
  '*.clientSecret',
];

export interface LoggerOptions {
  // Human-readable lines (pino-pretty) instead of one JSON object per line.
  pretty?: boolean;
  // Where lines go; standard output when absent (tests capture lines through it).
  stream?: DestinationStream;
}

export function createLogger(level: string, opts: LoggerOptions = {}): Logger {
  const options = {
    level,
    redact: { paths: redact, censor: '[redacted]' },
    base: undefined,
    // Every line written while a request is served carries that request's id.
    mixin: () => {
      const request = currentRequest();
      return request ? { reqId: request.requestId } : {};
    },
  };
  if (opts.stream) return pino(options, opts.stream);
  if (opts.pretty) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } });
  }
  // Standard output written synchronously: one write(2) per line from the event loop's thread. pino's
  // default (an asynchronous SonicBoom) hands each line to libuv's thread pool, which wakes a pool thread
  // and then the event loop again: ~1 more futex call and ~0.3-0.5 more thread switches per request at
  // LOG_LEVEL=info (bench/wakeups.ts), ~90 instead of ~35 µs of CPU a line at light load (bench/log-destination.ts).
  return pino(options, pino.destination({ dest: 1, sync: true }));
}

// Pretty output where a person reads the terminal: LOG_FORMAT=pretty, or a terminal outside production.
// pino-pretty is a development dependency; a production install writes JSON lines.
export function wantsPrettyLogs(format: 'pretty' | 'json' | null, env: string): boolean {
  if (!prettyInstalled()) return false;
  if (format) return format === 'pretty';
  return env !== 'production' && process.stdout.isTTY === true;
}

function prettyInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}
