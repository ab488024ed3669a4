// The marketplace's synonym table (text/synonyms.ts) as a Typesense synonym set: one multi-way synonym
// per line of the table. The set is written whenever the engine creates a collection, and named in
// every search.
import type { SynonymSetCreateSchema } from 'typesense/lib/Typesense/SynonymSets.js';
import { SYNONYMS } from '../text/synonyms.js';

export const synonymSetName = (alias: string) => `${alias}_synonyms`;

export function synonymSet(): SynonymSetCreateSchema {
  return { items: SYNONYMS.map((phrases, i) => ({ id: `marketplace-${i + 1}`, synonyms: [...phrases] })) };
}
