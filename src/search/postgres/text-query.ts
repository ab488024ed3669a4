// Turns a free-text query into a PostgreSQL tsquery that tolerates typos. Each query word becomes a group
// of alternatives: the word itself and the vocabulary words closest to it (pg_trgm), and for the last
// word also a prefix match and the vocabulary words it begins. Groups are combined with AND, or with OR
// as a fallback when AND finds nothing.

import { typoAllowance, typoDistance } from './edit-distance.js';

const MAX_QUERY_WORDS = 8;
const WORD = /^[\p{L}\p{N}]+$/u;
// Corrections kept per word, and how many of the nearest words to keep when none is within the allowance.
const MAX_CORRECTIONS = 8;
const LAST_RESORT_CORRECTIONS = 2;

export interface QueryWord {
  word: string;
  // The last word is taken as the beginning of a word still being typed.
  last: boolean;
}

export interface WordExpansion extends QueryWord {
  // A stop word ("for", "the") is not indexed; a group for it could never match.
  stop: boolean;
  similar: string[];
  completions: string[];
}

// The words of a query: lower-cased runs of letters and digits, the first few only.
export function queryWords(q: string): QueryWord[] {
  const words = q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, MAX_QUERY_WORDS);
  return words.map((word, i) => ({ word, last: i === words.length - 1 }));
}

/**
 * The corrections of a query word among vocabulary words ranked by trigram similarity: those within the
 * word's typo allowance (by edit distance), nearest first. Trigrams find candidates fast but rank them
 * loosely ("hexor" looks closer to "hexoern" than "hexorgen" does); edit distance decides. When nothing is
 * close enough, the nearest couple are kept so that a badly mangled word can still match something.
 */
export function chooseCorrections(word: string, candidates: string[]): string[] {
  const allowance = typoAllowance(word.length);
  const within = candidates
    .map((candidate, rank) => ({ candidate, rank, distance: typoDistance(word, candidate) }))
    .filter((c) => c.distance <= allowance)
    .sort((a, b) => a.distance - b.distance || a.rank - b.rank)
    .map((c) => c.candidate);
  if (within.length > 0) return within.slice(0, MAX_CORRECTIONS);
  return word.length >= 4 ? candidates.slice(0, LAST_RESORT_CORRECTIONS) : [];
}

// The tsquery text for to_tsquery, or null when no word can match anything. Only letters and digits
// reach the text, so it cannot carry tsquery operators of its own.
export function fullTextQuery(expansions: WordExpansion[], combine: 'all' | 'any'): string | null {
  const groups = expansions
    .filter((e) => !e.stop)
    .map((e) => {
      const alternatives = [e.last ? `${e.word}:*` : e.word, ...e.similar, ...e.completions].filter((term) =>
        WORD.test(term.replace(/:\*$/, '')),
      );
      return `(${[...new Set(alternatives)].join(' | ')})`;
    });
  if (groups.length === 0) return null;
  return groups.join(combine === 'all' ? ' & ' : ' | ');
}

// The words exactly as typed, any of them (the last as a prefix): what an exact match must contain.
export function exactTextQuery(expansions: WordExpansion[]): string | null {
  return fullTextQuery(
    expansions.map((e) => ({ ...e, similar: [], completions: [] })),
    'any',
  );
}
