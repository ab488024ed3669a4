// Who may scrape /metrics. Without METRICS_TOKEN anyone who reaches the port (keep it on an internal
// network); with it, only a request carrying `Authorization: Bearer <token>`. Both sides are hashed
// before the constant-time comparison, so neither the token's bytes nor its length leak through timing.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

export function metricsAccess(token: string | null): (authorization: string | undefined) => boolean {
  if (token === null) return () => true;
  const expected = digest(token);
  return (authorization) => {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
    return match !== null && timingSafeEqual(digest(match[1]!), expected);
  };
}
