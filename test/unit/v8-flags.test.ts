import { describe, expect, it } from 'vitest';
import { flagsToSet, V8_FLAGS } from '../../scripts/v8-flags.mjs';

describe("the service's V8 flags (scripts/start.mjs)", () => {
  it('sets each flag nothing else gave', () => {
    expect(V8_FLAGS).toContain('--optimize-for-size');
    expect(flagsToSet([], '')).toEqual(V8_FLAGS);
    expect(flagsToSet(['--enable-source-maps'], '--max-old-space-size=512')).toEqual(V8_FLAGS);
  });

  it("leaves a flag to node's command line or NODE_OPTIONS, in any spelling", () => {
    expect(flagsToSet(['--no-optimize-for-size'])).not.toContain('--optimize-for-size');
    expect(flagsToSet([], '--trace-gc  --no-optimize_for_size')).not.toContain('--optimize-for-size');
    expect(flagsToSet(['--optimize-for-size'])).not.toContain('--optimize-for-size');
  });
});
