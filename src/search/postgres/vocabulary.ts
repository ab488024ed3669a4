// Keeps this process's correction index in step with the database. The search_words triggers bump
// search_vocabulary.version whenever the vocabulary gains a word; every search reads that version in the
// same query, so each process (however many share the database) notices a change on its next search and
// rebuilds in the background, without a separate round trip or a message bus.
import type { PrismaClient } from '../../db/client.js';
import { CorrectionIndex } from './correction-index.js';

export async function loadCorrectionIndex(db: PrismaClient): Promise<CorrectionIndex> {
  // One statement, so the version and the words come from the same snapshot.
  const rows = await db.$queryRaw<Array<{ version: string; word: string | null; lexemes: string[] | null }>>`
    SELECT v.version::text AS version, w.word, tsvector_to_array(to_tsvector('english'::regconfig, w.word)) AS lexemes
    FROM search_vocabulary v LEFT JOIN search_words w ON true
    WHERE v.id = 1`;
  // How many agents use each lexeme: what makes a word telling (rare) or incidental (common).
  const stats = await db.$queryRaw<Array<{ word: string; ndoc: number }>>`
    SELECT word, ndoc FROM ts_stat('SELECT search_vector FROM agent_search WHERE status = ''active''')`;
  const [{ documents }] = await db.$queryRaw<[{ documents: number }]>`SELECT count(*)::int AS documents FROM agent_search WHERE status = 'active'`;
  const words = rows.filter((r) => r.word !== null).map((r) => ({ word: r.word!, lexemes: r.lexemes ?? [] }));
  return new CorrectionIndex(rows[0]?.version ?? '0', words, new Map(stats.map((s) => [s.word, s.ndoc])), documents);
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

export function createVocabulary(db: PrismaClient): Vocabulary {
  let index: Promise<CorrectionIndex> | null = null;
  let loading: Promise<void> | null = null;

  function reload(): Promise<void> {
    // One rebuild at a time; searches meanwhile use the index they have.
    loading ??= loadCorrectionIndex(db)
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
      index ??= loadCorrectionIndex(db).catch((error: unknown) => {
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
