// RFC 8785 (JSON Canonicalization Scheme) for the values a receipt holds: objects with keys sorted by
// their UTF-16 code units (JavaScript's default string order), no whitespace, strings and numbers as
// ECMAScript's JSON.stringify writes them (which is what RFC 8785 specifies for both). Integers and
// strings only in receipts; a number that is not finite has no JSON form and is refused.
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('a number that is not finite has no canonical JSON');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new TypeError(`${typeof value} has no JSON form`);
}
