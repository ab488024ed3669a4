// The callback token an agent receives with a delivery. It is derived from a random 32-byte nonce with
// the server key, so the database alone (nonce and SHA-256 of the token) cannot produce it, and the
// delivery job can rebuild it for every retry without the token ever being stored.
import { createHmac } from 'node:crypto';
import { randomText } from '../crypto/random-text.js';
import { sameHash, sha256Hex } from '../crypto/tokens.js';

export function newTokenNonce(): string {
  return randomText(32, 'base64url');
}

export function taskToken(serverKey: Buffer, taskId: string, nonce: string): string {
  return createHmac('sha256', serverKey).update(`task-token:${taskId}:${nonce}`).digest('base64url');
}

export function tokenHash(token: string): string {
  return sha256Hex(token);
}

export function tokenMatches(token: string, storedHash: string | null): boolean {
  return storedHash !== null && sameHash(sha256Hex(token), storedHash);
}

// Whether `token` is the one issued to the task, also once its hash is gone (a finished task's token no
// longer works): then the agent can be told the task is over rather than that its token is wrong.
export function isIssuedToken(serverKey: Buffer, task: { id: string; tokenNonce: string | null }, token: string): boolean {
  return task.tokenNonce !== null && tokenMatches(token, tokenHash(taskToken(serverKey, task.id, task.tokenNonce)));
}
