// Turns a free-text query into groups of tsquery alternatives, one group per thing the searcher asked for
// (a word, or a phrase with synonyms). The engine requires every group first and, when too few agents
// have them all, ranks agents by how many groups they cover (a soft AND, like Typesense's drop_tokens).
//
// Within a group the alternatives come in tiers, so that ranking can prefer the words as typed:
//   exact  the word itself when it is in the vocabulary (never corrected then), a synonym, a joined form
//   near   one typo away, a completion of the last word, the parts of a compound
//   far    two typos away (words of seven letters or more)
// A word no agent uses is kept as typed too: a query of such words matches nothing.
import { typoAllowance } from '../text/edit-distance.js';
import { STOP_WORDS } from '../text/stop-words.js';
import { findSynonyms } from '../text/synonyms.js';
import { queryWords } from '../text/words.js';
import type { CorrectionIndex } from './correction-index.js';

const MAX_CORRECTIONS = 6;
const MAX_COMPLETIONS = 8;

export interface WordGroup {
  // The query words this group stands for.
  words: string[];
  exact: string[];
  near: string[];
  far: string[];
  // At most how many agents match the group (the sum over its alternatives): rare groups are telling.
  frequency: number;
}

// A lexeme as tsquery text. Lexemes come from the vocabulary (letters and digits), but quoting keeps any
// text a literal lexeme whatever it contains.
const quote = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
const all = (parts: string[]) => (parts.length === 1 ? parts[0]! : `(${parts.join(' & ')})`);

export class QueryPlanner {
  constructor(private readonly index: CorrectionIndex) {}

  isStop(word: string): boolean {
    return STOP_WORDS.has(word) || this.index.lexemes(word)?.length === 0;
  }

  // A vocabulary word as tsquery text (its lexemes ANDed), or null when it is not in the vocabulary.
  private known(word: string): { text: string; frequency: number } | null {
    const lexemes = this.index.lexemes(word);
    if (!lexemes?.length) return null;
    return { text: all(lexemes.map(quote)), frequency: Math.max(...lexemes.map((l) => this.index.frequency(l))) };
  }

  private wordGroup(word: string, last: boolean): WordGroup {
    const group: WordGroup = { words: [word], exact: [], near: [], far: [], frequency: 0 };
    const add = (tier: 'exact' | 'near' | 'far', term: { text: string; frequency: number } | null) => {
      if (!term || group.exact.includes(term.text) || group.near.includes(term.text) || group.far.includes(term.text)) return;
      group[tier].push(term.text);
      group.frequency += term.frequency;
    };
    const known = this.known(word);
    // Known words are matched as themselves only; the others as typed (for words newer than this
    // process's index, and short words the vocabulary leaves out) and as their corrections.
    add('exact', known ?? { text: quote(word), frequency: 0 });
    if (!known) {
      for (const c of this.index.corrections(word, typoAllowance(word.length), MAX_CORRECTIONS)) add(c.distance === 1 ? 'near' : 'far', this.known(c.word));
      const parts = word.length >= 6 ? this.index.split(word) : null;
      if (parts) {
        const [left, right] = parts.map((p) => this.known(p)!);
        add('near', { text: all([left!.text, right!.text]), frequency: Math.min(left!.frequency, right!.frequency) });
      }
    }
    // The last word may be unfinished: its completions, and any lexeme beginning with it as typed.
    if (last && word.length >= 2) {
      if (word.length >= 3) for (const completion of this.index.completions(word, MAX_COMPLETIONS)) add('near', this.known(completion));
      add('near', { text: `${quote(word)}:*`, frequency: 0 });
    }
    return group;
  }

  // The query's groups, or [] when it has no word to search for (empty, or only stop words).
  plan(q: string): WordGroup[] {
    const words = queryWords(q);
    const synonyms = new Map(findSynonyms(words).map((m) => [m.start, m]));
    const groups: WordGroup[] = [];
    for (let i = 0; i < words.length; ) {
      const synonym = synonyms.get(i);
      if (synonym) {
        groups.push(this.phraseGroup(words.slice(i, i + synonym.length), synonym.alternatives, i + synonym.length === words.length));
        i += synonym.length;
        continue;
      }
      const word = words[i]!;
      if (this.isStop(word)) {
        i++;
        continue;
      }
      const group = this.wordGroup(word, i === words.length - 1);
      // Two words that the agents write as one ("help desk" → helpdesk) form one group.
      const next = words[i + 1];
      const joined = next !== undefined && !synonyms.has(i + 1) && !this.isStop(next) ? this.known(word + next) : null;
      if (joined) {
        const second = this.wordGroup(next!, i + 1 === words.length - 1);
        groups.push({
          words: [word, next!],
          exact: [joined.text, all([alternatives(group), alternatives(second)])],
          near: [],
          far: [],
          frequency: joined.frequency + Math.min(group.frequency, second.frequency),
        });
        i += 2;
        continue;
      }
      groups.push(group);
      i++;
    }
    return groups;
  }

  // A phrase of the synonym table: itself (its words as a group each) or any other phrase of its set.
  private phraseGroup(words: string[], synonyms: string[][], last: boolean): WordGroup {
    const own = words.filter((w) => !this.isStop(w)).map((w, i, kept) => this.wordGroup(w, last && i === kept.length - 1));
    const group: WordGroup = { words, exact: [], near: [], far: [], frequency: 0 };
    if (own.length) {
      group.exact.push(all(own.map(alternatives)));
      group.frequency = Math.min(...own.map((g) => g.frequency));
    }
    for (const phrase of synonyms) {
      // Words under three letters ("cv") are not in the vocabulary but are indexed as they are.
      const terms = phrase.filter((w) => !this.isStop(w)).map((w) => (w.length < 3 ? { text: quote(w), frequency: 0 } : this.known(w)));
      // A synonym that no agent uses cannot match; leave it out.
      if (terms.length === 0 || terms.some((t) => t === null)) continue;
      const text = all(terms.map((t) => t!.text));
      if (group.exact.includes(text)) continue;
      group.exact.push(text);
      group.frequency += Math.min(...terms.map((t) => t!.frequency));
    }
    return group;
  }
}

// Every alternative of a group, as one tsquery.
export function alternatives(group: WordGroup): string {
  const terms = [...group.exact, ...group.near, ...group.far];
  return terms.length === 1 ? terms[0]! : `(${terms.join(' | ')})`;
}
