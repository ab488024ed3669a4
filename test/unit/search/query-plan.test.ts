// Planning a query for the postgres engine: what each query word may match, and in which tier.
import { describe, expect, it } from 'vitest';
import { CorrectionIndex } from '../../../src/search/postgres/correction-index.js';
import { alternatives, QueryPlanner } from '../../../src/search/postgres/query-plan.js';
import { findSynonyms } from '../../../src/search/text/synonyms.js';
import { queryWords } from '../../../src/search/text/words.js';

const words: Array<[string, string[]]> = [
  ['help', ['help']], ['helm', ['helm']], ['kelp', ['kelp']], ['desk', ['desk']], ['helpdesk', ['helpdesk']],
  ['translator', ['translat']], ['translation', ['translat']], ['image', ['imag']], ['generation', ['generat']],
  ['sql', ['sql']], ['voice', ['voic']], ['text', ['text']], ['transcription', ['transcript']], ['the', []], ['for', []],
  ['summarizer', ['summar']], ['summarization', ['summar']], ['ats', ['ats']], ['resume', ['resum']], ['résumé', ['résumé']],
  ['customer', ['custom']], ['support', ['support']], ['speech', ['speech']], ['data', ['data']], ['base', ['base']], ['database', ['databas']],
];
const index = new CorrectionIndex('1', words.map(([word, lexemes]) => ({ word, lexemes })), new Map([['help', 100], ['desk', 10]]), 1000);
const plan = (q: string) => new QueryPlanner(index).plan(q);

describe('queryWords', () => {
  it('lower-cases, folds accents, splits on anything but letters and digits, and keeps eight words', () => {
    expect(queryWords('  Résumé-Screening & OCR!')).toEqual(['resume', 'screening', 'ocr']);
    expect(queryWords("übersetzer:* | 'x' <-> !y")).toEqual(['ubersetzer', 'x', 'y']);
    expect(queryWords('a b c d e f g h i j')).toHaveLength(8);
  });
});

describe('QueryPlanner', () => {
  it('matches a word of the vocabulary as itself only: no corrections', () => {
    const [group] = plan('help desk translator');
    expect(group).toBeDefined();
    const [, , translator] = plan('kelp desk translator');
    expect(translator!.exact).toEqual(["'translat'"]);
    expect(plan('help ranking')[0]).toMatchObject({ exact: ["'help'"], near: [], far: [] });
  });

  it('corrects a word that no agent uses, one typo near and two far, and keeps it as typed', () => {
    const [group] = plan('tranlsator x');
    expect(group).toMatchObject({ exact: ["'tranlsator'"], near: ["'translat'"] });
    const [two] = plan('trasnlatr x');
    expect(two!.far).toContain("'translat'");
  });

  it('counts the agents of the closer forms apart from those of the looser ones', () => {
    // The phrase (help 100, desk 10 agents: at most 10 have it) and its synonyms are close; the words
    // apart (again at most 10) are loose.
    expect(plan('help desk')[0]).toMatchObject({ frequency: 20, closeFrequency: 10 });
    expect(plan('help desk')[0]!.far).toEqual(["('help' & 'desk')"]);
  });

  it('corrects three-letter words by one swap or substitution', () => {
    expect(plan('slq x')[0]).toMatchObject({ exact: ["'slq'"], near: ["'sql'"] });
  });

  it('completes the last word from the vocabulary by the raw fragment, not its stem', () => {
    // "ats" is a word of its own: matched as itself, never as the stem "at".
    expect(plan('ats')[0]).toMatchObject({ exact: ["'ats'"], near: [] });
    // "summari" stems to something else; its completions carry the right stem: in a name as close as
    // the word itself (the word may be unfinished), elsewhere near.
    expect(plan('summari')[0]).toMatchObject({ lead: "'summari':A", exact: ["'summari'", "'summar':A"], near: ["'summar'"] });
    // A fragment the vocabulary cannot complete is matched as a raw prefix.
    expect(plan('qx')[0]!.near).toEqual(["'qx':*"]);
    // Only the last word is a prefix.
    expect(plan('summari x')[0]!.near).toEqual([]);
    expect(plan('summari x')[0]!.exact).toEqual(["'summari'"]);
  });

  it('finds what the finished word finds while a word of its own is still being typed', () => {
    // "help" on the way to "helpdesk": the word in a name leads, then the word anywhere or helpdesk in a
    // name, then helpdesk elsewhere.
    expect(plan('x help')[1]).toMatchObject({ lead: "'help':A", exact: ["'help'", "'helpdesk':A"], near: ["'helpdesk'"] });
    expect(plan('help x')[0]).toMatchObject({ exact: ["'help'"], near: [] });
    expect(plan('help x')[0]!.lead).toBeUndefined();
  });

  it('leaves out stop words, and has nothing to search for when only stop words are left', () => {
    expect(plan('the translator for').map((g) => g.words)).toEqual([['translator']]);
    expect(plan('the for')).toEqual([]);
  });

  it('keeps a word no agent uses as typed, so a query of such words matches nothing', () => {
    expect(plan('zqxjkvw')).toEqual([{ words: ['zqxjkvw'], exact: ["'zqxjkvw'"], near: ["'zqxjkvw':*"], far: [], frequency: 0, closeFrequency: 0, live: false, start: 0 }]);
  });

  it('offers every spelling that folds to the typed word', () => {
    expect(plan('resume x')[0]!.exact).toEqual(["('resum' | 'résumé')"]);
  });

  it('joins two words the agents write as one', () => {
    const [group] = plan('data base x');
    expect(group!.words).toEqual(['data', 'base']);
    expect(group!.exact).toEqual(["'databas'", "('data' & 'base')"]);
    expect(alternatives(group!)).toBe("('databas' | ('data' & 'base'))");
  });

  it('splits a compound no agent uses into two words they do', () => {
    expect(plan('kelpdesk x')[0]!.near).toContain("('kelp' & 'desk')");
  });

  it('matches a synonym phrase as typed first, then its synonyms, then its words anywhere', () => {
    const [group] = plan('voice to text');
    // A phrase of several words is one lexeme of the documents that have it (search_phrases).
    expect(group!.exact).toEqual(["'voice to text'"]);
    expect(group!.near).toContain("'transcript'");
    expect(group!.near).toContain("'speech to text'");
    expect(group!.far).toEqual(["('voic' & 'text')"]);
  });

  it('keeps only letters and digits of what is typed, each word quoted, so no query text becomes tsquery syntax', () => {
    expect(plan("qq'rr vv\\ww ':* | !zz & (yy)").map((g) => g.exact[0])).toEqual(["'qq'", "'rr'", "'vv'", "'ww'", "'zz'", "'yy'"]);
  });
});

describe('findSynonyms', () => {
  it('finds the longest phrase at each place, without overlaps', () => {
    expect(findSynonyms(['need', 'voice', 'to', 'text', 'and', 'cv'])).toEqual([
      { start: 1, length: 3, alternatives: [['speech', 'to', 'text'], ['transcription'], ['transcribe'], ['dictation']] },
      { start: 5, length: 1, alternatives: [['resume'], ['curriculum', 'vitae']] },
    ]);
  });
});
