import { describe, expect, it } from 'vitest';
import { flagsToSet, V8_FLAGS } from '../../scripts/v8-flags.mjs';

describe("the service's V8 flags (scripts/start.mjs)", () => {
  it('sets each flag nothing else gave', () => {
    expect(V8_FLAGS).toEqual(['--semi-space-growth-factor=1', '--heap-growing-percent=30']);
    expect(flagsToSet([], '')).toEqual(V8_FLAGS);
    expect(flagsToSet(['--enable-source-maps'], '--max-old-space-size=512')).toEqual(V8_FLAGS);
  });

  it("leaves a flag to node's command line or NODE_OPTIONS, in any spelling", () => {
    expect(flagsToSet(['--heap-growing-percent=50'])).toEqual(['--semi-space-growth-factor=1']);
    expect(flagsToSet([], '--trace-gc  --heap_growing_percent=10')).toEqual(['--semi-space-growth-factor=1']);
    expect(flagsToSet(['--semi_space_growth_factor=2'], '--heap-growing-percent=0')).toEqual([]);
  });
});
