// The vocabulary of the agents' texts, held in process memory: which query words are spelled right, what
// they stem to, how many agents use each stem, and the nearest words to a misspelled one (bigram-index.ts), so
// that a search costs the database one indexed full-text query and no scan of the vocabulary.
import { BigramIndex } from '../text/bigram-index.js';
import { fold } from '../text/words.js';

export interface Correction {
  word: string;
  distance: number;
}

export interface VocabularyRow {
  word: string;
  // The word's lexemes in the 'english' configuration; none for a stop word.
  lexemes: string[];
}

const sameLetters = (a: string, b: string) => a.length === b.length && [...a].sort().join('') === [...b].sort().join('');

export class CorrectionIndex {
  // Folded word → the lexemes of each vocabulary word that folds to it ("resume" → [resum], [résumé]).
  // A word's own lexemes all belong to it; the words are alternatives.
  private readonly formsByWord = new Map<string, string[][]>();
  private readonly sortedWords: string[];
  private readonly near: BigramIndex;

  constructor(
    // The vocabulary version this index was built from (search_vocabulary.version).
    readonly version: string,
    rows: VocabularyRow[],
    private readonly documentFrequency: Map<string, number>,
    // Agents counted in documentFrequency.
    readonly documents: number,
  ) {
    for (const row of rows) {
      const key = fold(row.word);
      const forms = this.formsByWord.get(key);
      const form = [...new Set(row.lexemes)].sort();
      if (!forms) this.formsByWord.set(key, [form]);
      else if (!forms.some((f) => f.join(' ') === form.join(' '))) forms.push(form);
    }
    this.sortedWords = [...this.formsByWord.keys()].sort();
    this.near = new BigramIndex(this.sortedWords.filter((word) => !this.isStop(word)));
  }

  get size(): number {
    return this.formsByWord.size;
  }

  // The forms of a vocabulary word (each the lexemes of one spelling), or null for a word no agent uses.
  forms(word: string): string[][] | null {
    return this.formsByWord.get(word) ?? null;
  }

  // A word the full-text configuration drops ("the", "for"): it has no lexemes.
  isStop(word: string): boolean {
    const forms = this.formsByWord.get(word);
    return forms !== undefined && forms.every((f) => f.length === 0);
  }

  // A vocabulary word that is not a stop word.
  isWord(word: string): boolean {
    const forms = this.formsByWord.get(word);
    return forms !== undefined && forms.some((f) => f.length > 0);
  }

  // Agents whose texts contain this lexeme (at the time the index was built).
  frequency(lexeme: string): number {
    return this.documentFrequency.get(lexeme) ?? 0;
  }

  // Vocabulary words within the allowed typos, nearest first, then the most used. A three-letter word is
  // only corrected to another three-letter word (a swap or a substitution: "slq" → sql).
  corrections(word: string, maxDistance: number, limit: number): Correction[] {
    if (maxDistance <= 0) return [];
    return this.near
      .search(word, maxDistance)
      .filter((c) => c.distance > 0 && (word.length > 3 || c.word.length === word.length))
      .map((c) => ({ ...c, used: this.usage(c.word), swap: sameLetters(c.word, word) ? 0 : 1 }))
      // At equal distance a swap of two letters (the commonest slip) beats other typos: "soe" → seo, not sue.
      .sort((a, b) => a.distance - b.distance || a.swap - b.swap || b.used - a.used || (a.word < b.word ? -1 : 1))
      .slice(0, limit)
      .map(({ word: w, distance }) => ({ word: w, distance }));
  }

  // Vocabulary words that begin with the fragment (not the fragment itself), the most used first.
  completions(fragment: string, limit: number): string[] {
    let low = 0;
    let high = this.sortedWords.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.sortedWords[mid]! < fragment) low = mid + 1;
      else high = mid;
    }
    const found: string[] = [];
    // A long run of completions ("co…") is cut: the raw prefix match covers the rest.
    for (let i = low; i < this.sortedWords.length && found.length < 500; i++) {
      const word = this.sortedWords[i]!;
      if (!word.startsWith(fragment)) break;
      if (word !== fragment && this.isWord(word)) found.push(word);
    }
    return found
      .map((word) => ({ word, used: this.usage(word) }))
      .sort((a, b) => b.used - a.used || a.word.length - b.word.length)
      .slice(0, limit)
      .map((c) => c.word);
  }

  // A compound of two vocabulary words ("helpdesk" → help, desk), the most even split first.
  split(word: string): [string, string] | null {
    const cuts = [...Array(Math.max(0, word.length - 5)).keys()].map((i) => i + 3).sort((a, b) => Math.abs(a - word.length / 2) - Math.abs(b - word.length / 2));
    for (const cut of cuts) {
      const left = word.slice(0, cut);
      const right = word.slice(cut);
      if (this.isWord(left) && this.isWord(right)) return [left, right];
    }
    return null;
  }

  private usage(word: string): number {
    return Math.max(0, ...(this.formsByWord.get(word) ?? []).flat().map((l) => this.frequency(l)));
  }
}
