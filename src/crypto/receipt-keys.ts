// The service's own Ed25519 keys for receipts, derived from the server key (SECRET_KEY, or the one kept
// under DATA_DIR) with HKDF, one per version: every process of a service has the same keys without
// storing another secret, and a rotation is a new version number. The current version signs; the one
// before it stays published (and verifying) until RECEIPT_PREVIOUS_KEY_UNTIL, then is retired.
import { createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';

// The DER prefix of an Ed25519 private key in PKCS #8 (RFC 8410): the 32-byte seed follows it.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface ReceiptKey {
  kid: string;
  version: number;
  privateKey: KeyObject;
  publicJwk: JWK;
}

async function keyOf(serverKey: Buffer, version: number): Promise<ReceiptKey> {
  const seed = Buffer.from(hkdfSync('sha256', serverKey, Buffer.alloc(0), `receipt-signing-key:v${version}`, 32));
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const { kty, crv, x } = createPublicKey(privateKey).export({ format: 'jwk' });
  const jwk: JWK = { kty, crv, x };
  const kid = `receipt-v${version}-${(await calculateJwkThumbprint(jwk)).slice(0, 16)}`;
  return { kid, version, privateKey, publicJwk: { ...jwk, kid, alg: 'EdDSA', use: 'sig' } };
}

export interface ReceiptKeys {
  current: ReceiptKey;
  // The key of the version before, and until when it stays published; null when there is none.
  previous: { key: ReceiptKey; until: Date } | null;
}

export async function receiptKeys(serverKey: Buffer, settings: { version: number; previousUntil: Date | null }): Promise<ReceiptKeys> {
  const current = await keyOf(serverKey, settings.version);
  const previous = settings.version > 1 && settings.previousUntil ? { key: await keyOf(serverKey, settings.version - 1), until: settings.previousUntil } : null;
  return { current, previous };
}
