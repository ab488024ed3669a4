// The one error encoder: the status always comes from the code (statusOf), the body in the route's
// declared format, the API's envelope or RFC 6749's.
import { describe, expect, it } from 'vitest';
import { encodeError } from '../../../src/http/respond.js';
import { errorStatus } from '../../../src/errors.js';

describe('encodeError', () => {
  it('answers every code with its status in the API envelope, a field and further facts beside it', () => {
    for (const [code, status] of Object.entries(errorStatus)) expect(encodeError({ code, message: 'm' }).status).toBe(status);
    expect(encodeError({ code: 'CONFLICT', message: 'no', field: 'id', details: { status: 'completed' } })).toEqual({
      status: 409,
      body: { error: { code: 'CONFLICT', message: 'no', field: 'id', status: 'completed' } },
    });
    expect(encodeError({ code: 'NOT_FOUND', message: 'gone' }).body).toEqual({ error: { code: 'NOT_FOUND', message: 'gone' } });
  });

  it('answers in RFC 6749 shape for the oauth format, with the error’s own OAuth code or one its code implies', () => {
    expect(encodeError({ code: 'INVALID_INPUT', message: 'bad code', oauthError: 'invalid_grant' }, 'oauth')).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'bad code' },
    });
    expect(encodeError({ code: 'UNAUTHENTICATED', message: 'who' }, 'oauth')).toEqual({ status: 401, body: { error: 'invalid_client', error_description: 'who' } });
    expect(encodeError({ code: 'RATE_LIMITED', message: 'slow' }, 'oauth')).toEqual({ status: 429, body: { error: 'temporarily_unavailable', error_description: 'slow' } });
    expect(encodeError({ code: 'PAYLOAD_TOO_LARGE', message: 'big' }, 'oauth')).toEqual({ status: 413, body: { error: 'invalid_request', error_description: 'big' } });
    expect(encodeError({ code: 'INTERNAL', message: 'x' }, 'oauth').body).toEqual({ error: 'server_error', error_description: 'x' });
  });
});
