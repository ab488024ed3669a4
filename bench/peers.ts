// The peers the project is measured against, configured as their documentation suggests for a search
// box: every text field searched with field boosts like the project's (name first, then capabilities and
// tags, then descriptions), typo tolerance, prefix matching of the words, accents folded. Neither library
// has a synonym table, so none is given to them.
import { create, insertMultiple, search } from '@orama/orama';
import MiniSearch from 'minisearch';
import { fold } from '../src/search/text/words.js';
import type { BenchEngine } from './measure.js';
import type { BenchAgent } from './vocabulary.js';

const BOOST = { name: 3, capabilities: 2, tags: 2, description: 1, longDescription: 0.5 };

export function miniSearchEngine(agents: BenchAgent[]): BenchEngine {
  const index = new MiniSearch<BenchAgent>({
    fields: ['name', 'capabilities', 'tags', 'description', 'longDescription'],
    extractField: (doc, field) => {
      const value = doc[field as keyof BenchAgent];
      return Array.isArray(value) ? value.join(' ') : String(value);
    },
    processTerm: (term) => fold(term),
    // Fuzzy: up to 20 % of a word's letters may be wrong (one typo in five letters, two in ten).
    searchOptions: { boost: BOOST, fuzzy: 0.2, prefix: true, combineWith: 'OR' },
  });
  index.addAll(agents);
  return { name: 'minisearch', search: async (q) => index.search(q).slice(0, 10).map((r) => r.id as string) };
}

export async function oramaEngine(agents: BenchAgent[]): Promise<BenchEngine> {
  const db = create({
    schema: { id: 'string', name: 'string', capabilities: 'string[]', tags: 'string[]', description: 'string', longDescription: 'string' } as const,
    // English stemming (off by default) so that plurals meet their singulars.
    components: { tokenizer: { stemming: true, language: 'english' } },
  });
  await insertMultiple(
    db,
    agents.map((a) => ({ id: a.id, name: a.name, capabilities: a.capabilities, tags: a.tags, description: a.description, longDescription: a.longDescription })),
    1000,
  );
  return {
    name: 'orama',
    async search(q) {
      // Prefix matching is Orama's default (exact: false); tolerance is the edit distance allowed.
      const result = await search(db, { term: q, properties: '*', boost: BOOST, tolerance: 1, limit: 10 });
      return result.hits.map((h) => h.id);
    },
  };
}
