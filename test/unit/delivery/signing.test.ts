import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  generateWebhookSecret,
  signServiceSignature,
  standardWebhookHeaders,
  verifyServiceSignature,
} from '../../../src/delivery/signing.js';

// The Standard Webhooks specification's published example secret.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('generateWebhookSecret', () => {
  it('is whsec_ followed by 32 random bytes in base64', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  it('differs every time', () => {
    const secrets = new Set(Array.from({ length: 20 }, generateWebhookSecret));
    expect(secrets.size).toBe(20);
  });
});

describe('signServiceSignature (X-Service-Signature)', () => {
  it('is sha256= and the hex HMAC of the raw body keyed with the secret text, prefix included', () => {
    const body = Buffer.from('{"taskId":"task_123","title":"héllo"}');
    const expected = createHmac('sha256', SECRET).update(body).digest('hex');
    expect(signServiceSignature(SECRET, body)).toBe(`sha256=${expected}`);
  });

  it('matches a fixed vector', () => {
    // Derived once, outside this code, with OpenSSL:
    //   printf '%s' '{"taskId":"task_123"}' \
    //     | openssl dgst -sha256 -hmac 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
    expect(signServiceSignature(SECRET, Buffer.from('{"taskId":"task_123"}'))).toBe(
      'sha256=da12a00f1a92d4bf626acb154a933d49cf507fb4fcfc27967edbccf3b8b111ed',
    );
  });

  it('does not use the base64-decoded key', () => {
    const body = Buffer.from('{}');
    const withDecodedKey = createHmac('sha256', Buffer.from(SECRET.slice(6), 'base64')).update(body).digest('hex');
    expect(signServiceSignature(SECRET, body)).not.toBe(`sha256=${withDecodedKey}`);
  });
});

describe('verifyServiceSignature', () => {
  const body = Buffer.from('{"taskId":"t1"}');
  const header = signServiceSignature(SECRET, body);

  it('accepts the signature of the same bytes and secret', () => {
    expect(verifyServiceSignature(SECRET, body, header)).toBe(true);
  });

  it('rejects a missing header', () => {
    expect(verifyServiceSignature(SECRET, body, undefined)).toBe(false);
    expect(verifyServiceSignature(SECRET, body, null)).toBe(false);
  });

  it('rejects another body, another secret, a truncated or altered header', () => {
    expect(verifyServiceSignature(SECRET, Buffer.from('{"taskId":"t2"}'), header)).toBe(false);
    expect(verifyServiceSignature(generateWebhookSecret(), body, header)).toBe(false);
    expect(verifyServiceSignature(SECRET, body, header.slice(0, -1))).toBe(false);
    expect(verifyServiceSignature(SECRET, body, header.replace('sha256=', 'sha512='))).toBe(false);
    expect(verifyServiceSignature(SECRET, body, '')).toBe(false);
  });

  it('rejects a body that was re-serialised, even if it means the same JSON', () => {
    const reserialised = Buffer.from(JSON.stringify(JSON.parse('{ "taskId": "t1" }')));
    const spaced = Buffer.from('{ "taskId": "t1" }');
    expect(verifyServiceSignature(SECRET, spaced, signServiceSignature(SECRET, reserialised))).toBe(false);
  });
});

describe('standardWebhookHeaders', () => {
  it('reproduces the Standard Webhooks specification test vector', () => {
    // Published with the specification (standard-webhooks, Svix): this exact
    // secret, id, timestamp and payload sign to this value.
    expect(
      standardWebhookHeaders(SECRET, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, Buffer.from('{"test": 2432232314}')),
    ).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('signs id.timestamp.body with the base64-decoded secret', () => {
    const secret = generateWebhookSecret();
    const body = Buffer.from('{"taskId":"t1","input":{"q":"ÿ"}}');
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`dlv_42.1700000000.${body.toString('utf8')}`).digest('base64');
    expect(standardWebhookHeaders(secret, 'dlv_42', 1700000000, body)['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('refuses a timestamp that is not whole seconds', () => {
    expect(() => standardWebhookHeaders(SECRET, 'dlv_1', 1700000000.5, Buffer.from('{}'))).toThrow(RangeError);
  });
});
