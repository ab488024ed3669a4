// Webhook secrets and the two signatures a delivery carries.
//
// X-Service-Signature is the spec's scheme: HMAC keyed with the secret text
// exactly as the owner received it. The Standard Webhooks headers sign the
// same raw bytes the way Svix-compatible verifier libraries expect, so agents
// can use an off-the-shelf library instead of hand-rolled code.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { signV1aContent } from './ed25519-signing.js';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** `sha256=<hex>` over the raw body, keyed with the secret's UTF-8 text including `whsec_`. */
export function signServiceSignature(secret: string, body: Buffer): string {
  const digest = createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
  return `sha256=${digest}`;
}

/** Constant-time check of an X-Service-Signature header; false when it is missing. */
export function verifyServiceSignature(secret: string, body: Buffer, header: string | null | undefined): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(signServiceSignature(secret, body), 'utf8');
  const received = Buffer.from(header, 'utf8');
  // timingSafeEqual throws on unequal lengths; the length of a hex digest is
  // public, so checking it first leaks nothing.
  return received.length === expected.length && timingSafeEqual(received, expected);
}

export type StandardWebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/**
 * Standard Webhooks (standardwebhooks.com): HMAC-SHA256 over
 * `${msgId}.${timestamp}.${body}`, keyed with the base64-decoded part of the
 * secret after `whsec_`, sent as `v1,<base64>`.
 */
export function standardWebhookHeaders(
  secret: string | readonly string[],
  msgId: string,
  timestampSeconds: number,
  body: Buffer,
  // The agent's Ed25519 private keys (whsk_…; a rotation's outgoing one after the current): a `v1a`
  // signature each, beside the HMAC ones.
  signingKeys: readonly string[] = [],
): StandardWebhookHeaders {
  if (!Number.isSafeInteger(timestampSeconds)) {
    throw new RangeError('webhook timestamp must be whole seconds since the epoch');
  }
  // Concatenate bytes, not strings: the body is signed exactly as sent, even
  // if it were not valid UTF-8.
  const signedContent = Buffer.concat([Buffer.from(`${msgId}.${timestampSeconds}.`, 'utf8'), body]);
  // Several secrets (a rotation's grace period): one signature each, space-separated, as the
  // specification allows; a verifier accepts the message when any one matches its secret.
  const signatures = (typeof secret === 'string' ? [secret] : secret).map((s) => {
    const key = Buffer.from(s.startsWith(WEBHOOK_SECRET_PREFIX) ? s.slice(WEBHOOK_SECRET_PREFIX.length) : s, 'base64');
    return `v1,${createHmac('sha256', key).update(signedContent).digest('base64')}`;
  });
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': [...signatures, ...signV1aContent(signingKeys, signedContent)].join(' '),
  };
}
