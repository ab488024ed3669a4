// RFC 8785 canonical JSON for receipts: keys sorted by UTF-16 code units at every depth, no whitespace,
// strings and numbers as ECMAScript writes them (the RFC's own rule), and values with no JSON form refused.
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/services/receipts/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and leaves out whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: true }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":true,"z":null}]},"b":1}');
  });

  it('orders keys by UTF-16 code units, as RFC 8785 asks (not by code point or locale)', () => {
    // U+20AC (€) is 0x20AC; U+1F600 is the surrogate pair D83D DE00, which sorts after it; "\r" before "1".
    expect(canonicalJson({ '\u{1F600}': 1, '\u20ac': 2, '1': 3, '\r': 4, é: 5 })).toBe('{"\\r":4,"1":3,"é":5,"€":2,"😀":1}');
  });

  it('writes strings and numbers as ECMAScript does (RFC 8785 §3.2.2)', () => {
    expect(canonicalJson({ s: 'line\nquote"back\\slash\u0001', n: [1e21, 0.1, -0, 100] })).toBe('{"n":[1e+21,0.1,0,100],"s":"line\\nquote\\"back\\\\slash\\u0001"}');
  });

  it('refuses values that have no JSON form', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(TypeError);
    expect(canonicalJson({ gone: undefined, kept: 1 })).toBe('{"kept":1}');
  });
});
