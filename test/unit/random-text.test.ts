import { describe, expect, it } from 'vitest';
import { randomText } from '../../src/crypto/random-text.js';
import { newId } from '../../src/ids.js';
import { newTokenNonce } from '../../src/services/task-token.js';

describe('random text drawn from a block of random bytes', () => {
  it('hands out each byte once, across refills of the block', () => {
    // 10 000 ids take 100 000 bytes: some two dozen blocks.
    const ids = Array.from({ length: 10_000 }, () => newId('tsk'));
    for (const id of ids) expect(id).toMatch(/^tsk_[0-9a-z]{9}[0-9a-f]{20}$/);
    expect(new Set(ids.map((id) => id.slice(-20))).size).toBe(ids.length);
    // Bytes handed out once are as good as fresh ones: every byte value turns up, about as often.
    const counts = new Array<number>(256).fill(0);
    for (const id of ids) for (let i = 13; i < 33; i += 2) counts[Number.parseInt(id.slice(i, i + 2), 16)]!++;
    expect(Math.min(...counts)).toBeGreaterThan(250);
    expect(Math.max(...counts)).toBeLessThan(550);
  });

  it('makes token nonces of 32 bytes, each different, and text longer than a block', () => {
    const nonces = Array.from({ length: 1_000 }, () => newTokenNonce());
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64url')).toHaveLength(32);
    expect(new Set(nonces).size).toBe(nonces.length);
    const long = randomText(10_000, 'hex');
    expect(long).toMatch(/^[0-9a-f]{20000}$/);
    expect(long.slice(0, 64)).not.toBe(long.slice(64, 128));
  });
});
