// Expected failures carry a code, an HTTP status and, for invalid input, the field at fault. GraphQL
// puts the code in extensions.code; REST answers { error: { code, message, field } } with the status.
import { GraphQLError } from 'graphql';

export const errorStatus = {
  INVALID_INPUT: 400,
  QUERY_TOO_COMPLEX: 400,
  UNAUTHENTICATED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  INSUFFICIENT_SCOPE: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class AppError extends GraphQLError {
  readonly code: ErrorCode;
  readonly field: string | undefined;

  constructor(code: ErrorCode, message: string, extra: { field?: string; details?: Record<string, unknown> } = {}) {
    super(message, { extensions: { code, ...(extra.field ? { field: extra.field } : {}), ...extra.details } });
    this.code = code;
    this.field = extra.field;
  }
}

// A backing service (the database) cannot answer now; the request may be repeated as it is, after
// retryAfterSeconds (Retry-After on REST).
export const temporarilyUnavailable = () =>
  new AppError('UNAVAILABLE', 'the service is temporarily unavailable; try again shortly', { details: { retryAfterSeconds: 5 } });

export const invalid = (field: string, message: string) => new AppError('INVALID_INPUT', message, { field });
// Several fields at fault at once: the first is `field`, each with its sentence in `problems`.
export const invalidFields = (problems: Array<{ field: string; message: string }>) =>
  new AppError('INVALID_INPUT', problems.map((p) => `${p.field} ${p.message}`).join('; '), {
    field: problems[0]!.field,
    ...(problems.length > 1 ? { details: { problems } } : {}),
  });
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = (message = 'not allowed') => new AppError('FORBIDDEN', message);
// The credential (a key or an app's token) was not given the scope the operation needs.
export const insufficientScope = (scope: string) =>
  new AppError('INSUFFICIENT_SCOPE', `this credential lacks the "${scope}" scope`, { details: { scope } });
export const unauthenticated = (message = 'authentication required') => new AppError('UNAUTHENTICATED', message);
// No credential came where a caller is needed (the routes that need one, MCP, A2A).
export const noCredential = () => unauthenticated('send Authorization: Bearer <API key or access token>');
export const conflict = (message: string, details?: Record<string, unknown>) => new AppError('CONFLICT', message, { details });

export function statusOf(code: unknown): number {
  return typeof code === 'string' && code in errorStatus ? errorStatus[code as ErrorCode] : 500;
}

const kinds: Record<string, string> = {
  array: 'a list',
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  date: 'a date',
};

// zod's own wording for a value of the wrong kind ("Invalid input: expected array, received null") in
// the words the rest of the API uses.
export function plainWords(message: string): string {
  const wrongKind = /^Invalid input: expected (\w+), received (\w+)$/.exec(message);
  if (!wrongKind) return message;
  const [, expected, received] = wrongKind as unknown as [string, string, string];
  if (received === 'null') return 'cannot be null';
  if (received === 'undefined') return 'is required';
  return `must be ${kinds[expected] ?? expected}`;
}
