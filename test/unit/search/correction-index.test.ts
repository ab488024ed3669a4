// The in-memory vocabulary index of the postgres engine: typo distance, the BK-tree, corrections,
// completions and compound splits.
import { describe, expect, it } from 'vitest';
import { BigramIndex } from '../../../src/search/text/bigram-index.js';
import { typoDistance } from '../../../src/search/text/edit-distance.js';
import { typoAllowance } from '../../../src/search/text/matching.js';
import { CorrectionIndex } from '../../../src/search/postgres/correction-index.js';

const row = (word: string, lexemes = [word]) => ({ word, lexemes });
const index = (words: Array<{ word: string; lexemes: string[] }>, frequency: Record<string, number> = {}) =>
  new CorrectionIndex('1', words, new Map(Object.entries(frequency)), 100);

describe('typoDistance', () => {
  it.each([
    ['translator', 'translator', 0],
    ['tranlsator', 'translator', 1],
    ['imge', 'image', 1],
    ['generaton', 'generation', 1],
    ['slq', 'sql', 1],
    ['summarzre', 'summarizer', 2],
    ['abc', 'xyz', 3],
    ['', 'abc', 3],
  ])('%s → %s is %i', (a, b, d) => {
    expect(typoDistance(a, b)).toBe(d);
    expect(typoDistance(b, a)).toBe(d);
  });

  it('stops counting past the limit', () => {
    expect(typoDistance('abcdefgh', 'zyxwvuts', 2)).toBe(3);
    expect(typoDistance('a', 'abcdef', 2)).toBe(3);
  });

  it('allows no typo under three letters, one up to six, two from seven', () => {
    expect([2, 3, 6, 7, 12].map(typoAllowance)).toEqual([0, 1, 1, 2, 2]);
  });
});

describe('BigramIndex', () => {
  it('finds exactly the words within the distance, as a scan would', () => {
    const words = ['help', 'helm', 'kelp', 'held', 'hello', 'yelp', 'whelp', 'translator', 'translation', 'transistor', 'sql', 'seo', 'sea', 'abcd', 'badc'];
    const index = new BigramIndex(words);
    expect(index.size).toBe(words.length);
    for (const query of ['help', 'tranlsator', 'trasnlatro', 'slq', 'zzz', 'hep', 'ehlp', 'abdc', 'bacd']) {
      for (const max of [1, 2]) {
        const found = index.search(query, max).map((f) => f.word).sort();
        expect(found).toEqual(words.filter((w) => typoDistance(query, w) <= max).sort());
      }
    }
  });
});

describe('CorrectionIndex', () => {
  const vocabulary = index(
    [row('help'), row('helm'), row('kelp'), row('sql'), row('seo'), row('sue'), row('desk'), row('the', []), row('translator', ['translat']), row('résumé'), row('resume', ['resum'])],
    { help: 50, helm: 2, kelp: 1, sql: 10, seo: 5, sue: 40, translat: 30 },
  );

  it('knows each spelling that folds to a word, and which words are stop words', () => {
    expect(vocabulary.forms('resume')).toEqual([['résumé'], ['resum']]);
    expect(vocabulary.forms('help')).toEqual([['help']]);
    expect(vocabulary.forms('nothing')).toBeNull();
    expect(vocabulary.isStop('the')).toBe(true);
    expect(vocabulary.isWord('the')).toBe(false);
    expect(vocabulary.isWord('help')).toBe(true);
  });

  it('corrects to the nearest words, a swap first, then the most used', () => {
    expect(vocabulary.corrections('hlep', 1, 5).map((c) => c.word)).toEqual(['help']);
    // "soe" is one substitution from sue (more used) and one swap from seo: the swap wins.
    expect(vocabulary.corrections('soe', 1, 5).map((c) => c.word)).toEqual(['seo', 'sue']);
    expect(vocabulary.corrections('slq', 1, 5)).toEqual([{ word: 'sql', distance: 1 }]);
  });

  it('corrects a three-letter word only to another of three letters', () => {
    expect(vocabulary.corrections('hel', 1, 5)).toEqual([]);
  });

  it('never offers a word as its own correction, nor a stop word', () => {
    expect(vocabulary.corrections('help', 1, 5).map((c) => c.word)).not.toContain('help');
    expect(vocabulary.corrections('thee', 1, 5).map((c) => c.word)).not.toContain('the');
  });

  it('completes a fragment with the most used words that begin with it', () => {
    expect(vocabulary.completions('he', 5)).toEqual(['help', 'helm']);
    expect(vocabulary.completions('help', 5)).toEqual([]);
    expect(vocabulary.completions('x', 5)).toEqual([]);
  });

  it('splits a compound into two vocabulary words', () => {
    expect(vocabulary.split('helpdesk')).toEqual(['help', 'desk']);
    expect(vocabulary.split('helpdeks')).toBeNull();
  });
});
