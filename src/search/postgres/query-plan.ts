// Turns a free-text query into groups of tsquery alternatives, one group per thing the searcher asked for
// (a word, or a phrase with synonyms). The engine requires every group first and, when too few agents
// have them all, ranks agents by how many groups they cover (a soft AND, like Typesense's drop_tokens).
//
// Within a group the alternatives come in tiers, so that ranking can prefer the words as typed:
//   exact  the word itself when it is in the vocabulary (never corrected then), a synonym, a joined form,
//          a completion of the last word in an agent's name (the word may be unfinished)
//   near   one typo away, a completion of the last word elsewhere, the parts of a compound
//   far    two typos away (words of seven letters or more)
// A word no agent uses is kept as typed too: a query of such words matches nothing.
import { typoAllowance } from '../text/matching.js';
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
  // The same over the exact and near alternatives only.
  closeFrequency: number;
  // The last word as typed, in agents' names only: set when its completions are offered too, so that
  // the finished word in a name comes first ("help" → Help Center before Helper Bot).
  lead?: string;
  // False for a word that is in no agent's text and has no correction or completion there: it can match
  // nothing (unless this process's vocabulary is behind, which the engine notices and then re-plans).
  live: boolean;
  // Where the group's first word is among the query's words (stop words counted), set by plan(): how far
  // apart the words were typed, for namePhrase.
  start?: number;
}

interface Term {
  text: string;
  frequency: number;
  // From the vocabulary (as opposed to the word as typed).
  known?: boolean;
}

// A lexeme as tsquery text. Lexemes come from the vocabulary (letters and digits), but quoting keeps any
// text a literal lexeme whatever it contains.
const quote = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
const all = (parts: string[]) => (parts.length === 1 ? parts[0]! : `(${parts.join(' & ')})`);

export class QueryPlanner {
  constructor(private readonly index: CorrectionIndex) {}

  isStop(word: string): boolean {
    return STOP_WORDS.has(word) || this.index.isStop(word);
  }

  // A vocabulary word as tsquery text (each spelling's lexemes ANDed, the spellings ORed), or null when
  // it is not in the vocabulary.
  // `weight`: only where the lexemes carry that weight ('A': the agent's name).
  private known(word: string, weight?: 'A'): Term | null {
    const forms = this.index.forms(word)?.filter((f) => f.length > 0);
    if (!forms?.length) return null;
    const texts = forms.map((f) => all(f.map((l) => (weight ? `${quote(l)}:${weight}` : quote(l)))));
    return {
      text: texts.length === 1 ? texts[0]! : `(${texts.join(' | ')})`,
      frequency: forms.flat().reduce((sum, l) => sum + this.index.frequency(l), 0),
      known: true,
    };
  }

  private wordGroup(word: string, last: boolean): WordGroup {
    const group: WordGroup = { words: [word], exact: [], near: [], far: [], frequency: 0, closeFrequency: 0, live: word.length < 3 };
    const add = (tier: 'exact' | 'near' | 'far', term: Term | null) => {
      if (!term) return;
      // A vocabulary word makes the group live even when its text is already there as typed ("illustr",
      // a fragment that happens to be the stem of "illustrator").
      if (term.known) group.live = true;
      if (group.exact.includes(term.text) || group.near.includes(term.text) || group.far.includes(term.text)) return;
      group[tier].push(term.text);
      group.frequency += term.frequency;
      if (tier !== 'far') group.closeFrequency += term.frequency;
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
        add('near', { text: all([left!.text, right!.text]), frequency: Math.min(left!.frequency, right!.frequency), known: true });
      }
    }
    // The last word may be unfinished (search as you type): its completions from the vocabulary; and,
    // for a fragment the vocabulary cannot complete (too short, or newer than this process's index), any
    // lexeme beginning with it as typed: a prefix scan of the full-text index, which is not cheap for
    // short fragments. A completion in an agent's name counts as much as the word itself anywhere, so
    // that typing "paint" on the way to "painter" finds Acme Painter before an agent that paints in
    // its description; elsewhere a completion is a near form. The word itself in a name leads (`lead`).
    if (last && word.length >= 2) {
      const completions = word.length >= 3 ? this.index.completions(word, MAX_COMPLETIONS) : [];
      for (const completion of completions) {
        add('exact', this.known(completion, 'A'));
        add('near', this.known(completion));
      }
      // (As typed when this process's vocabulary does not know the word yet: it may be newer than it.)
      if (completions.length > 0) group.lead = known ? this.known(word, 'A')!.text : `${quote(word)}:A`;
      // The raw prefix stays a looser form: a misspelled word would otherwise outrank its corrections.
      if (!known && completions.length === 0) add('near', { text: `${quote(word)}:*`, frequency: 0 });
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
        groups.push({ ...this.phraseGroup(words.slice(i, i + synonym.length), synonym.alternatives, i + synonym.length === words.length), start: i });
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
        // Exact alternatives only: all of it is close.
        const frequency = joined.frequency + Math.min(group.frequency, second.frequency);
        groups.push({
          words: [word, next!],
          exact: [joined.text, all([alternatives(group), alternatives(second)])],
          near: [],
          far: [],
          frequency,
          closeFrequency: frequency,
          live: true,
          start: i,
        });
        i += 2;
        continue;
      }
      groups.push({ ...group, start: i });
      i++;
    }
    return groups;
  }

  // A phrase of the synonym table. As typed, its words next to each other come first; then the other
  // phrases of its set; then its words anywhere in the listing ("voice to text" is about transcription
  // before it is about an agent with a voice that also handles text).
  private phraseGroup(words: string[], synonyms: string[][], last: boolean): WordGroup {
    const group: WordGroup = { words, exact: [], near: [], far: [], frequency: 0, closeFrequency: 0, live: false };
    const add = (tier: 'exact' | 'near' | 'far', text: string, frequency: number) => {
      if (group.exact.includes(text) || group.near.includes(text) || group.far.includes(text)) return;
      group[tier].push(text);
      group.frequency += frequency;
      if (tier !== 'far') group.closeFrequency += frequency;
    };
    if (words.length === 1) {
      const own = this.wordGroup(words[0]!, last);
      for (const tier of ['exact', 'near', 'far'] as const) for (const text of own[tier]) add(tier, text, 0);
      group.frequency = own.frequency;
      group.closeFrequency = own.closeFrequency;
      group.live = own.live;
      if (own.lead) group.lead = own.lead;
    } else {
      const own = this.phrase(words);
      if (own) {
        add('exact', own.text, own.frequency);
        group.live = true;
      }
      // Its words anywhere, each with its own corrections.
      const parts = words.filter((w) => !this.isStop(w)).map((w, i, kept) => this.wordGroup(w, last && i === kept.length - 1));
      if (parts.length) add('far', all(parts.map(alternatives)), Math.min(...parts.map((p) => p.frequency)));
      if (parts.length && parts.every((p) => p.live)) group.live = true;
    }
    for (const synonym of synonyms) {
      const phrase = this.phrase(synonym);
      if (phrase) {
        add('near', phrase.text, phrase.frequency);
        group.live = true;
      }
    }
    return group;
  }

  // A vocabulary word, or a word under three letters ("cv"), which the vocabulary leaves out but the
  // full-text index keeps as it is.
  private term(word: string): Term | null {
    return word.length < 3 ? { text: quote(word), frequency: 0 } : this.known(word);
  }

  // A phrase of the synonym table. One word is matched anywhere, like any other word; several are one
  // lexeme of the documents that have them in this order in the name, capabilities, tags or description
  // (search_phrases), so matching costs a lookup instead of a check of word positions. Its frequency is
  // that of its rarest word (at most as many agents have the phrase). Null when a word is not known: the
  // phrase cannot match.
  private phrase(words: string[]): { text: string; frequency: number } | null {
    const terms = words.filter((w) => !this.isStop(w)).map((w) => this.term(w));
    if (terms.length === 0 || terms.some((t) => t === null)) return null;
    const frequency = Math.min(...terms.map((t) => t!.frequency));
    return { text: words.length > 1 ? quote(words.join(' ')) : terms[0]!.text, frequency };
  }
}

// Every alternative of a group, as one tsquery.
export function alternatives(group: WordGroup): string {
  const terms = [...group.exact, ...group.near, ...group.far];
  return terms.length === 1 ? terms[0]! : `(${terms.join(' | ')})`;
}

// Every lexeme of a tsquery text, in agents' names only ('A'), a prefix staying a prefix.
const inName = (text: string) => text.replace(/('(?:[^'\\]|''|\\.)*')(?::([*A-D]+))?/g, (_, lexeme: string, flags?: string) => `${lexeme}:${flags?.includes('*') ? '*' : ''}A`);

// The query's words in an agent's name, in the order and at the distances typed, each in its exact or near
// forms (the last word's completions among them): "orel pro" is the start of "Orel Prober", and not of
// "Orel Listener Pro", though both names have both words. What is typed into a search box is most often
// the start of a name, so the engine ranks such names first among agents that match as closely
// (order.ts). Null for a single group, and for groups of several words (phrases, joined words), whose
// forms are not single lexemes.
export function namePhrase(groups: WordGroup[]): string | null {
  if (groups.length < 2 || groups.some((g) => g.words.length !== 1 || g.start === undefined)) return null;
  const parts: string[] = [];
  for (const group of groups) {
    const forms = [...new Set([...group.exact, ...group.near].filter((t) => !/[&<]/.test(t)).map(inName))];
    if (forms.length === 0) return null;
    parts.push(forms.length === 1 ? forms[0]! : `(${forms.join(' | ')})`);
  }
  return parts.reduce((phrase, part, i) => {
    const distance = groups[i]!.start! - groups[i - 1]!.start!;
    return `${phrase} ${distance === 1 ? '<->' : `<${distance}>`} ${part}`;
  });
}

