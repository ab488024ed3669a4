// One judgement of an attempt's answer for every sender (webhook deliveries, owner notifications, A2A
// pushes): only 2xx takes it, 410 is gone for good, Retry-After is honoured whichever way it arrives.
import { describe, expect, it } from 'vitest';
import { judgeAttempt } from '../../src/delivery/attempt-verdict.js';

describe('judgeAttempt', () => {
  it('takes every 2xx and nothing else', () => {
    for (const status of [200, 201, 204, 299]) expect(judgeAttempt({ kind: 'response', status }).taken, String(status)).toBe(true);
    for (const status of [199, 301, 302, 400, 404, 429, 500, 503]) expect(judgeAttempt({ kind: 'response', status }).taken, String(status)).toBe(false);
  });

  it('says a 410 is gone and names the status or the error', () => {
    expect(judgeAttempt({ kind: 'response', status: 410 })).toEqual({ taken: false, gone: true, error: 'HTTP 410', retryAfterMs: null });
    expect(judgeAttempt({ kind: 'response', status: 500 })).toMatchObject({ gone: false, error: 'HTTP 500' });
    expect(judgeAttempt({ kind: 'error', error: 'timeout' })).toEqual({ taken: false, gone: false, error: 'timeout', retryAfterMs: null });
  });

  it('reads Retry-After as the webhook client parsed it or as the header', () => {
    expect(judgeAttempt({ kind: 'response', status: 429, retryAfterMs: 5000 })).toMatchObject({ retryAfterMs: 5000 });
    expect(judgeAttempt({ kind: 'response', status: 503, retryAfter: '7' })).toMatchObject({ retryAfterMs: 7000 });
    expect(judgeAttempt({ kind: 'response', status: 503, retryAfter: null })).toMatchObject({ retryAfterMs: null });
  });
});
