// The marketplace's synonyms: each line is a set of phrases that mean the same to someone looking for an
// agent. Both engines read this one table (the postgres engine when planning a query, Typesense through
// its synonym sets). Phrases are written folded and lower-case; a phrase of several words matches when the
// query has those words next to each other.
export const SYNONYMS: readonly (readonly string[])[] = [
  ['cv', 'resume', 'curriculum vitae'],
  ['voice to text', 'speech to text', 'transcription', 'transcribe', 'dictation'],
  ['text to speech', 'speech synthesis', 'read aloud'],
  ['help desk', 'helpdesk', 'customer support', 'support desk'],
  ['ocr', 'text recognition'],
  ['seo', 'search engine optimization'],
  ['sql', 'database query'],
  ['bookkeeping', 'accounting'],
  ['summarize', 'summary', 'tldr'],
  ['scrape', 'scraping', 'crawl'],
];

// The phrases of several words. The postgres engine indexes each as one lexeme of the documents that
// have it (the search_phrases table; a change here needs a migration that rewrites that table, or
// `npm run cli -- search reindex`).
export const MULTI_WORD_PHRASES: readonly string[] = SYNONYMS.flat().filter((phrase) => phrase.includes(' '));

export interface SynonymMatch {
  // Where the matched phrase starts in the query's words, and how many words it spans.
  start: number;
  length: number;
  // The other phrases of its set, each as its words.
  alternatives: string[][];
}

const PHRASES = SYNONYMS.map((set) => set.map((phrase) => phrase.split(' ')));

// Non-overlapping phrase matches in the query's words, longest phrase first at each position.
export function findSynonyms(words: readonly string[]): SynonymMatch[] {
  const matches: SynonymMatch[] = [];
  for (let start = 0; start < words.length; ) {
    let best: SynonymMatch | null = null;
    for (const set of PHRASES) {
      for (const phrase of set) {
        if (phrase.length <= (best?.length ?? 0) || start + phrase.length > words.length) continue;
        if (phrase.every((w, i) => words[start + i] === w)) best = { start, length: phrase.length, alternatives: set.filter((p) => p !== phrase) };
      }
    }
    if (best) matches.push(best);
    start += best?.length ?? 1;
  }
  return matches;
}
