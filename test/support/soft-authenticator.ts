// A WebAuthn authenticator in the test process, for tests of the passkey endpoints without a browser
// (the browser tests drive Chromium's virtual authenticator). It makes an ES256 key pair per credential
// and answers the service's options the way a browser and a platform authenticator would: attestation
// "none", a discoverable credential, and the user-present and (unless told otherwise) user-verified flags.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

// The few CBOR items a "none" attestation needs (RFC 8949): small integers, byte and text strings, maps.
function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const head = Buffer.alloc(3);
  head[0] = (major << 5) | 25;
  head.writeUInt16BE(length, 1);
  return head;
}

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([cborHead(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  const parts = [cborHead(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer) => data.toString('base64url');

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

export interface SoftAuthenticator {
  // The answer to creation options (sign-up, adding a passkey), as the browser sends it.
  register(options: { challenge: string; rp: { id: string }; user: { id: string } }): Record<string, unknown>;
  // The answer to request options with the credential made last (a discoverable sign-in).
  signIn(options: { challenge: string; rpId: string }): Record<string, unknown>;
}

export function softAuthenticator(origin: string, opts: { userVerified?: boolean } = {}): SoftAuthenticator {
  const credentials: Credential[] = [];
  // UP (user present), UV (user verified); AT (attested credential data follows) at registration.
  const flags = (attested: boolean) => 0x01 | (opts.userVerified === false ? 0 : 0x04) | (attested ? 0x40 : 0);
  const clientData = (type: string, challenge: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    register(options) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const id = randomBytes(16);
      credentials.push({ id, privateKey, userHandle: options.user.id, counter: 0 });
      const coseKey = cbor(new Map<Cbor, Cbor>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')]]));
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length);
      const authData = Buffer.concat([sha256(options.rp.id), Buffer.from([flags(true)]), Buffer.alloc(4), Buffer.alloc(16), idLength, id, coseKey]);
      const attestationObject = cbor(new Map<Cbor, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        clientExtensionResults: {},
        response: { clientDataJSON: b64url(clientData('webauthn.create', options.challenge)), attestationObject: b64url(attestationObject), transports: ['internal'] },
      };
    },

    signIn(options) {
      const credential = credentials.at(-1);
      if (!credential) throw new Error('no credential made yet');
      credential.counter += 1;
      const counter = Buffer.alloc(4);
      counter.writeUInt32BE(credential.counter);
      const authData = Buffer.concat([sha256(options.rpId), Buffer.from([flags(false)]), counter]);
      const clientDataJSON = clientData('webauthn.get', options.challenge);
      const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key',
        clientExtensionResults: {},
        response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: credential.userHandle },
      };
    },
  };
}
