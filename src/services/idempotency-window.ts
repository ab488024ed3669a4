// How long a request's Idempotency-Key is remembered. It is a promise of the service, not of the HTTP
// layer alone: the REST layer replays the first answer within it (http/idempotency.ts), and work that
// remembers its key itself (a task stores the key it was created with) is found again by it for as long.
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
