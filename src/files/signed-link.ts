// Signed links to one file, for agents (any language, no API key): /v1/files/<id>?expires=<unix s>&sig=<mac>.
// The MAC is HMAC-SHA256 under a key derived from the server key for this use alone, over the file id
// and the expiry, so a link opens that file only and only until it expires.
import { createHmac, timingSafeEqual } from 'node:crypto';

function mac(serverKey: Buffer, fileId: string, expires: number): Buffer {
  const key = createHmac('sha256', serverKey).update('file-link-key').digest();
  return createHmac('sha256', key).update(`${fileId}\n${expires}`).digest();
}

export function signedFileUrl(baseUrl: string, serverKey: Buffer, fileId: string, expiresAt: Date): string {
  const expires = Math.ceil(expiresAt.getTime() / 1000);
  const sig = mac(serverKey, fileId, expires).toString('base64url');
  return `${baseUrl}/v1/files/${fileId}?expires=${expires}&sig=${sig}`;
}

export type LinkCheck = 'valid' | 'expired' | 'invalid';

export function checkSignedLink(serverKey: Buffer, fileId: string, expires: string | null, sig: string | null, now: Date): LinkCheck {
  if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return 'invalid';
  const given = Buffer.from(sig, 'base64url');
  const expected = mac(serverKey, fileId, Number(expires));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return Number(expires) * 1000 <= now.getTime() ? 'expired' : 'valid';
}

// A pre-signed upload (GraphQL createFileUpload): POST /v1/files?uploader=<user>&link=<id>&expires=<unix s>&sig=<mac>
// stores one file as that user until it expires, without credentials (a browser or a tool that cannot
// send the API key). The link's row (stores/file-upload-link-store.ts) says whether it may still be used.
function uploadMac(serverKey: Buffer, userId: string, linkId: string, expires: number): Buffer {
  const key = createHmac('sha256', serverKey).update('file-upload-key').digest();
  return createHmac('sha256', key).update(`${userId}\n${linkId}\n${expires}`).digest();
}

export function signedUploadUrl(baseUrl: string, serverKey: Buffer, userId: string, linkId: string, expiresAt: Date): string {
  const expires = Math.ceil(expiresAt.getTime() / 1000);
  return `${baseUrl}/v1/files?uploader=${userId}&link=${linkId}&expires=${expires}&sig=${uploadMac(serverKey, userId, linkId, expires).toString('base64url')}`;
}

export function checkSignedUpload(serverKey: Buffer, userId: string | null, linkId: string | null, expires: string | null, sig: string | null, now: Date): LinkCheck {
  if (!userId || !linkId || !expires || !sig || !/^\d{1,12}$/.test(expires)) return 'invalid';
  const given = Buffer.from(sig, 'base64url');
  const expected = uploadMac(serverKey, userId, linkId, Number(expires));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return Number(expires) * 1000 <= now.getTime() ? 'expired' : 'valid';
}
