import { pino, type Logger } from 'pino';

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

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: redact, censor: '[redacted]' }, base: undefined });
}
