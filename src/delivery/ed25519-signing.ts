// Standard Webhooks' asymmetric signature (`v1a`): Ed25519 over the same `${msgId}.${timestamp}.${body}`
// bytes the HMAC `v1` signs. The receiver checks it with the agent's public key (whpk_ + base64 of the raw
// 32-byte key), so it needs nothing secret, and a key per agent means a delivery signed for one agent
// never verifies at another. The private key (whsk_ + base64 of its PKCS #8 form) stays sealed at rest.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

export const PUBLIC_KEY_PREFIX = 'whpk_';
export const PRIVATE_KEY_PREFIX = 'whsk_';
// The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): the raw 32-byte key follows it.
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export interface SigningKeyPair {
  privateKey: string;
  publicKey: string;
}

export function generateSigningKey(): SigningKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: PRIVATE_KEY_PREFIX + privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    publicKey: PUBLIC_KEY_PREFIX + rawPublicKey(publicKey).toString('base64'),
  };
}

function rawPublicKey(key: KeyObject): Buffer {
  return key.export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length);
}

// Parsing a PKCS #8 key costs more than signing with it, and every delivery signs: the process keeps the
// keys it parsed lately (a bounded number, the oldest dropped first).
const MAX_PARSED_KEYS = 256;
const parsedKeys = new Map<string, KeyObject>();

function privateKeyOf(text: string): KeyObject {
  const parsed = parsedKeys.get(text);
  if (parsed) return parsed;
  if (!text.startsWith(PRIVATE_KEY_PREFIX)) throw new Error('not a whsk_ signing key');
  const key = createPrivateKey({ key: Buffer.from(text.slice(PRIVATE_KEY_PREFIX.length), 'base64'), format: 'der', type: 'pkcs8' });
  if (parsedKeys.size >= MAX_PARSED_KEYS) parsedKeys.delete(parsedKeys.keys().next().value!);
  parsedKeys.set(text, key);
  return key;
}

/** The public key (whpk_…) of a whpk_ text: null when it is not a 32-byte Ed25519 key. */
export function publicKeyOf(text: string): KeyObject | null {
  if (!text.startsWith(PUBLIC_KEY_PREFIX)) return null;
  const raw = Buffer.from(text.slice(PUBLIC_KEY_PREFIX.length), 'base64');
  if (raw.length !== 32) return null;
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

const signedContent = (msgId: string, timestampSeconds: number, body: Buffer) => Buffer.concat([Buffer.from(`${msgId}.${timestampSeconds}.`, 'utf8'), body]);

/** `v1a,<base64 signature>` for each private key (the current one first). */
export function signV1a(privateKeys: readonly string[], msgId: string, timestampSeconds: number, body: Buffer): string[] {
  return privateKeys.length === 0 ? [] : signV1aContent(privateKeys, signedContent(msgId, timestampSeconds, body));
}

/** The same over the signed content as already built (`${msgId}.${timestamp}.` and the body), which the HMAC signs too. */
export function signV1aContent(privateKeys: readonly string[], content: Buffer): string[] {
  return privateKeys.map((k) => `v1a,${sign(null, content, privateKeyOf(k)).toString('base64')}`);
}

/** Whether any v1a signature of a webhook-signature header verifies with the public key. */
export function verifyV1a(publicKey: string, msgId: string, timestampSeconds: number, body: Buffer, header: string): boolean {
  const key = publicKeyOf(publicKey);
  if (!key) return false;
  const content = signedContent(msgId, timestampSeconds, body);
  return header
    .split(' ')
    .filter((s) => s.startsWith('v1a,'))
    .some((s) => verify(null, content, key, Buffer.from(s.slice(4), 'base64')));
}
