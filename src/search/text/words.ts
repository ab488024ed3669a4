// How query text becomes words, shared by the correction index and the query planner: lower case, split
// on anything but letters and digits, accents folded ("résumé" and "resume" are the same key).
export const MAX_QUERY_WORDS = 8;

export function fold(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

// The folded words of a query, the first few only.
export function queryWords(q: string): string[] {
  return fold(q)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, MAX_QUERY_WORDS);
}
