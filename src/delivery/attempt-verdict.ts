// How the answer to one outgoing attempt is judged, stated once for every sender: task deliveries to an
// agent's webhook, operational notifications to an owner, and A2A push notifications to a client. As
// Standard Webhooks has it: only a 2xx takes the attempt; a 410 says the receiver is gone for good, so
// no retry follows; anything else (another status, no answer) fails this attempt and may be retried,
// not before the receiver's Retry-After when it sent one. Redirects are never followed (the guarded
// request), so a 3xx is a failure like any other.
import { parseRetryAfterMs } from './http-client.js';

// The answer as the senders get it: a status (with its Retry-After, read or not yet), or no answer.
export type AttemptAnswer =
  | { kind: 'response'; status: number; retryAfterMs?: number | null; retryAfter?: string | null }
  | { kind: 'error'; error: string };

export type AttemptVerdict =
  | { taken: true }
  | {
      taken: false;
      // The receiver said it is gone (410): stop, however many attempts are left.
      gone: boolean;
      // Why, in a few words for the log and the attempt's record (the status, or the transport's error).
      error: string;
      // The receiver's Retry-After, in milliseconds from now; null when it sent none.
      retryAfterMs: number | null;
    };

// The statuses that take an attempt: 2xx. The track record's SQL (stores/attempt-taken.ts) is made from
// this range too, so "the agent's endpoint first took the task" means the same there.
export const TAKEN_STATUSES = { min: 200, max: 299 } as const;

export const isTaken = (status: number): boolean => status >= TAKEN_STATUSES.min && status <= TAKEN_STATUSES.max;

export function judgeAttempt(answer: AttemptAnswer): AttemptVerdict {
  if (answer.kind === 'error') return { taken: false, gone: false, error: answer.error.slice(0, 500), retryAfterMs: null };
  if (isTaken(answer.status)) return { taken: true };
  const retryAfterMs = answer.retryAfterMs !== undefined ? answer.retryAfterMs : parseRetryAfterMs(answer.retryAfter ?? undefined);
  return { taken: false, gone: answer.status === 410, error: `HTTP ${answer.status}`, retryAfterMs };
}
