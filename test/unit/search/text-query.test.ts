// Building the typo-tolerant tsquery of the postgres engine.
import { describe, expect, it } from 'vitest';
import { chooseCorrections, exactTextQuery, fullTextQuery, queryWords, type WordExpansion } from '../../../src/search/postgres/text-query.js';
import { typoAllowance, typoDistance } from '../../../src/search/postgres/edit-distance.js';

const expansion = (word: string, extra: Partial<WordExpansion> = {}): WordExpansion => ({
  word, last: false, stop: false, similar: [], completions: [], ...extra,
});

describe('queryWords', () => {
  it('lower-cases, splits on anything but letters and digits, and marks the last word', () => {
    expect(queryWords('  Image-Generation & OCR!')).toEqual([
      { word: 'image', last: false },
      { word: 'generation', last: false },
      { word: 'ocr', last: true },
    ]);
  });

  it('keeps letters of any script and drops tsquery syntax', () => {
    expect(queryWords("übersetzer:* | 'x' <-> !y").map((w) => w.word)).toEqual(['übersetzer', 'x', 'y']);
  });

  it('takes the first eight words only', () => {
    expect(queryWords('a b c d e f g h i j')).toHaveLength(8);
  });
});

describe('fullTextQuery', () => {
  it('ORs each word with its corrections, ANDs the words, and makes the last word a prefix', () => {
    const q = fullTextQuery(
      [expansion('imge', { similar: ['image'] }), expansion('generaton', { last: true, similar: ['generation'], completions: [] })],
      'all',
    );
    expect(q).toBe('(imge | image) & (generaton:* | generation)');
  });

  it('adds completions of the last word', () => {
    expect(fullTextQuery([expansion('generati', { last: true, completions: ['generation', 'generative'] })], 'all')).toBe(
      '(generati:* | generation | generative)',
    );
  });

  it('leaves out stop words, and gives null when nothing is left', () => {
    expect(fullTextQuery([expansion('for', { stop: true }), expansion('ocr', { last: true })], 'all')).toBe('(ocr:*)');
    expect(fullTextQuery([expansion('the', { stop: true })], 'all')).toBeNull();
  });

  it('ORs the words in the fallback', () => {
    expect(fullTextQuery([expansion('a1'), expansion('b2', { last: true })], 'any')).toBe('(a1) | (b2:*)');
  });

  it('drops candidate words that are not plain words', () => {
    expect(fullTextQuery([expansion('ok', { similar: ["x'y", 'fine'] })], 'all')).toBe('(ok | fine)');
  });
});

describe('exactTextQuery', () => {
  it('keeps only the words as typed, any of them', () => {
    expect(exactTextQuery([expansion('imge', { similar: ['image'] }), expansion('gen', { last: true, completions: ['generation'] })])).toBe(
      '(imge) | (gen:*)',
    );
  });
});

describe('typoDistance', () => {
  it.each([
    ['translator', 'translator', 0],
    ['tranlsator', 'translator', 1],
    ['imge', 'image', 1],
    ['generaton', 'generation', 1],
    ['speach', 'speech', 1],
    ['kaoy', 'kayo', 1],
    ['summarzre', 'summarizer', 2],
    ['abc', 'xyz', 3],
    ['', 'abc', 3],
  ])('%s → %s is %i', (a, b, d) => {
    expect(typoDistance(a, b)).toBe(d);
    expect(typoDistance(b, a)).toBe(d);
  });

  it('allows no typo below four letters, one up to six, two from seven', () => {
    expect([3, 4, 6, 7, 12].map(typoAllowance)).toEqual([0, 1, 1, 2, 2]);
  });
});

describe('chooseCorrections', () => {
  it('keeps candidates within the allowance, nearest first, whatever their trigram order', () => {
    expect(chooseCorrections('kaoy', ['kaor', 'kay', 'kayo', 'koala'])).toEqual(['kaor', 'kay', 'kayo']);
    expect(chooseCorrections('tranlsator', ['translation', 'translater', 'translator'])).toEqual(['translator', 'translater']);
  });

  it('falls back to the two nearest by trigrams when none is close enough', () => {
    expect(chooseCorrections('qqqqqq', ['alpha', 'beta', 'gamma'])).toEqual(['alpha', 'beta']);
    expect(chooseCorrections('qqq', ['alpha'])).toEqual([]);
  });
});
