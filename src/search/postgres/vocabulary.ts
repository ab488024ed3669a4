// Keeps this process's correction index in step with the database. The search_words triggers bump
// search_vocabulary.version whenever the vocabulary gains a word; every search reads that version in the
// same query, so each process (however many share the database) notices a change on its next search and
// rebuilds in the background, without a separate round trip or a message bus.
import type { SqlDb } from '../../db/kysely.js';
import { readVocabulary } from '../../stores/search-store.js';
import { CorrectionIndex } from './correction-index.js';

export async function loadCorrectionIndex(db: SqlDb): Promise<CorrectionIndex> {
  const { version, words, documentFrequency, documents } = await readVocabulary(db);
  return new CorrectionIndex(version, words, documentFrequency, documents);
}

export interface Vocabulary {
  // The current index, loaded on first use.
  current(): Promise<CorrectionIndex>;
  // Called with the version a search saw; rebuilds when the index is older. Resolves once the index
  // has that version (or a newer one).
  seen(version: string): Promise<void>;
  // Forces a rebuild (after a reindex).
  refresh(): Promise<void>;
}

// `load` reads the index from the database (loadCorrectionIndex).
export function createVocabulary(load: () => Promise<CorrectionIndex>): Vocabulary {
  let index: Promise<CorrectionIndex> | null = null;
  let loading: Promise<void> | null = null;

  function reload(): Promise<void> {
    // One rebuild at a time; searches meanwhile use the index they have.
    loading ??= load()
      .then((fresh) => {
        index = Promise.resolve(fresh);
      })
      .finally(() => {
        loading = null;
      });
    return loading;
  }

  return {
    current() {
      index ??= load().catch((error: unknown) => {
        index = null;
        throw error;
      });
      return index;
    },
    async seen(version) {
      // A rebuild already under way may have read the vocabulary before this version: then a second
      // one, which starts after it.
      for (let attempt = 0; attempt < 2; attempt++) {
        const have = await this.current();
        if (BigInt(have.version) >= BigInt(version)) return;
        await reload();
      }
    },
    refresh: reload,
  };
}
