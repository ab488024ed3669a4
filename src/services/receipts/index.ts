// Receipts: when a task has finished, a compact JWS (EdDSA, with the key's `kid`) over the RFC 8785
// canonical JSON of what was asked and answered (their hashes, never the input or result), by whom, how it
// ended and what was paid. Anyone checks one against the service's JWKS (/.well-known/jwks.json) or with
// POST /v1/receipts/verify. A receipt is signed when it is read: Ed25519 signatures are deterministic, so
// the same finished task and key give the same receipt; after a key rotation it is signed with the new key,
// and one signed before keeps verifying while the old key is published.
import { CompactSign, compactVerify, createLocalJWKSet, decodeProtectedHeader, type JWK } from 'jose';
import type { Deps } from '../../deps.js';
import type { Payment, Task } from '../../generated/prisma/client.js';
import { isTerminal } from '../../lifecycle/task-lifecycle.js';
import { receiptKeys, type ReceiptKeys } from '../../crypto/receipt-keys.js';
import { canonicalJson } from './canonical-json.js';

export const RECEIPT_TYPE = 'task-receipt+jws';
// A receipt is a few hundred bytes; anything much longer is not one of ours.
export const MAX_RECEIPT_CHARS = 8192;

export type ReceiptTask = Pick<Task, 'id' | 'agentId' | 'requesterId' | 'status' | 'inputHash' | 'resultHash' | 'createdAt' | 'finishedAt'>;
export type ReceiptPayment = Pick<Payment, 'method' | 'status' | 'amountCents' | 'settledAt'> | null;

export type ReceiptCheck = { valid: true; kid: string; payload: Record<string, unknown> } | { valid: false; reason: string };

// Receipts already signed, by key id and canonical payload: the same bytes under the same key sign to the
// same receipt, so a finished task read again (every list and get of it) is not signed again; signing
// was a tenth of the CPU of listing finished tasks. The oldest entry leaves first.
const MAX_SIGNED = 5000;

export function receiptService(deps: Deps) {
  let keys: Promise<ReceiptKeys> | null = null;
  const signed = new Map<string, string>();
  const loaded = () => (keys ??= receiptKeys(deps.serverKey, deps.config.receipts));

  // The published keys: the current one, and the previous one while its overlap runs.
  async function publicKeys(): Promise<JWK[]> {
    const { current, previous } = await loaded();
    return [current.publicJwk, ...(previous && previous.until > deps.clock.now() ? [previous.key.publicJwk] : [])];
  }

  function payloadOf(task: ReceiptTask, payment: ReceiptPayment) {
    const method = payment?.method ?? 'free';
    return {
      type: 'task.receipt',
      issuer: deps.urls.base,
      taskId: task.id,
      agentId: task.agentId,
      requesterId: task.requesterId,
      status: task.status,
      inputHash: task.inputHash,
      resultHash: task.resultHash,
      // What the requester paid the agent in the end: a captured card payment or spent credits count.
      settlement: {
        method,
        paymentStatus: payment?.status ?? null,
        amountCents: payment?.amountCents ?? 0,
        settledCents: payment && (payment.status === 'captured' || (method === 'credit' && payment.status !== 'refunded' && payment.status !== 'released')) ? payment.amountCents : 0,
        settledAt: payment?.settledAt?.toISOString() ?? null,
      },
      createdAt: task.createdAt.toISOString(),
      finishedAt: task.finishedAt?.toISOString() ?? null,
    };
  }

  return {
    /** The task's receipt; null until it has finished. */
    async issue(task: ReceiptTask, payment: ReceiptPayment): Promise<string | null> {
      if (!isTerminal(task.status)) return null;
      const { current } = await loaded();
      const payload = canonicalJson(payloadOf(task, payment));
      const cacheKey = `${current.kid}\n${payload}`;
      const known = signed.get(cacheKey);
      if (known !== undefined) return known;
      const receipt = await new CompactSign(new TextEncoder().encode(payload)).setProtectedHeader({ alg: 'EdDSA', kid: current.kid, typ: RECEIPT_TYPE }).sign(current.privateKey);
      if (signed.size >= MAX_SIGNED) signed.delete(signed.keys().next().value!);
      signed.set(cacheKey, receipt);
      return receipt;
    },

    async jwks(): Promise<{ keys: JWK[] }> {
      return { keys: await publicKeys() };
    },

    /** Whether the receipt was signed by a key the service publishes now, over canonical JSON. */
    async verify(receipt: string): Promise<ReceiptCheck> {
      if (receipt.length > MAX_RECEIPT_CHARS) return { valid: false, reason: 'too long to be a receipt' };
      try {
        const header = decodeProtectedHeader(receipt);
        if (header.typ !== RECEIPT_TYPE) return { valid: false, reason: 'not a receipt of this service' };
        const { payload, protectedHeader } = await compactVerify(receipt, createLocalJWKSet({ keys: await publicKeys() }), { algorithms: ['EdDSA'] });
        const text = new TextDecoder().decode(payload);
        const parsed = JSON.parse(text) as Record<string, unknown>;
        // Signed bytes that are not the canonical form were not made here.
        if (canonicalJson(parsed) !== text) return { valid: false, reason: 'the payload is not canonical JSON' };
        return { valid: true, kid: protectedHeader.kid!, payload: parsed };
      } catch (error) {
        const code = (error as { code?: string }).code;
        return { valid: false, reason: code === 'ERR_JWKS_NO_MATCHING_KEY' ? 'signed with a key this service does not publish (unknown or retired)' : 'the signature does not verify' };
      }
    },
  };
}

export type ReceiptService = ReturnType<typeof receiptService>;
