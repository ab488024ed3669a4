// The matching choices both engines share (the postgres engine applies them itself; Typesense receives
// them as search parameters), so that a query behaves alike whichever engine answers it.

// Words of three letters may carry one typo, a swap or a substitution ("slq" → sql); from seven letters
// two ("tranlsator" and one more). Under three letters a typo makes another word too easily.
export const MIN_LENGTH_ONE_TYPO = 3;
export const MIN_LENGTH_TWO_TYPOS = 7;

// Looser forms of a word (two typos away, or a phrase's words apart) are searched only when its closer
// forms (as typed, one typo away, completed, a synonym) find fewer agents than this: a correction never
// crowds out what the searcher could have meant, and broad phrases are not widened to thousands of
// agents who only have their words somewhere.
export const TYPO_TOKENS_THRESHOLD = 1;

// When fewer agents than this have every word of the query, words are dropped (soft AND).
export const DROP_TOKENS_THRESHOLD = 1;

export function typoAllowance(length: number): number {
  if (length < MIN_LENGTH_ONE_TYPO) return 0;
  return length < MIN_LENGTH_TWO_TYPOS ? 1 : 2;
}
