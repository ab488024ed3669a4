// Building the typo-tolerant tsquery of the postgres engine.
import { describe, expect, it } from 'vitest';
import { fullTextQuery, queryWords, type WordExpansion } from '../../../src/search/postgres/text-query.js';

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
