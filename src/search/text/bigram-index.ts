// Finds every word within a few typos of a query word without comparing it against the whole vocabulary.
// Each word is listed under its letter pairs (with start and end marks); a word within k typos of the
// query shares at least pairs(query) - 3k of the query's pairs (one typo, even a swap of two letters,
// changes at most three), so only words that share that many are measured with the typo distance. The
// count only filters; the distance decides, so nothing within reach is missed.
import { typoDistance } from './edit-distance.js';

const pairs = (word: string): string[] => {
  const marked = `^${word}$`;
  const out = new Set<string>();
  for (let i = 0; i + 2 <= marked.length; i++) out.add(marked.slice(i, i + 2));
  return [...out];
};

export class BigramIndex {
  private readonly words: string[];
  private readonly postings = new Map<string, number[]>();
  private readonly counts: Uint16Array;

  constructor(words: Iterable<string>) {
    this.words = [...words];
    this.words.forEach((word, id) => {
      for (const pair of pairs(word)) {
        const list = this.postings.get(pair);
        if (list) list.push(id);
        else this.postings.set(pair, [id]);
      }
    });
    this.counts = new Uint16Array(this.words.length);
  }

  get size(): number {
    return this.words.length;
  }

  // Words within maxDistance of the word (the word itself included), with their distances.
  search(word: string, maxDistance: number): Array<{ word: string; distance: number }> {
    const own = pairs(word);
    const needed = own.length - 3 * maxDistance;
    // Too short a word for its allowance to share any pair for certain: measure every word (the engine's
    // allowances never come here; kept so the index is exact for any distance).
    if (needed < 1) {
      return this.words
        .map((candidate) => ({ word: candidate, distance: typoDistance(word, candidate, maxDistance) }))
        .filter((c) => c.distance <= maxDistance);
    }
    const touched: number[] = [];
    for (const pair of own) {
      for (const id of this.postings.get(pair) ?? []) {
        if (this.counts[id] === 0) touched.push(id);
        this.counts[id]!++;
      }
    }
    const found: Array<{ word: string; distance: number }> = [];
    for (const id of touched) {
      const shared = this.counts[id]!;
      this.counts[id] = 0;
      const candidate = this.words[id]!;
      if (shared < needed || Math.abs(candidate.length - word.length) > maxDistance) continue;
      const distance = typoDistance(word, candidate, maxDistance);
      if (distance <= maxDistance) found.push({ word: candidate, distance });
    }
    return found;
  }
}
