// The default search engine: PostgreSQL itself (a server or the embedded PGlite). Weighted full-text
// search over a trigger-maintained tsvector, with typo tolerance from pg_trgm: each query word is widened
// to the nearest words of the agents' vocabulary (search_words) before the full-text match. Trigram
// matching runs only over that short-word vocabulary, never over description text.
import type { PrismaClient } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { SearchEngine, SearchHits } from '../engine.js';
import type { DiscoveryQuery } from '../query.js';
import { orderBy, relevanceScore, textScore } from './order.js';
import { chooseCorrections, exactTextQuery, fullTextQuery, queryWords, type QueryWord, type WordExpansion } from './text-query.js';

// Vocabulary words fetched per query word as correction candidates (chooseCorrections keeps those within
// the typo allowance), and vocabulary words completing the last word.
const CANDIDATES_PER_WORD = 200;
const COMPLETIONS_PER_PREFIX = 8;
// One typo in a short word breaks most of its trigrams ("kaoy" and "kayo" share 2 of 8, similarity 0.25),
// so candidates are gathered below pg_trgm's default threshold of 0.3; edit distance then decides.
const CANDIDATE_SIMILARITY = 0.2;

async function expandWords(db: PrismaClient, words: QueryWord[]): Promise<WordExpansion[]> {
  // The `%` operator (the one the trigram index serves) reads its threshold from a setting, set for this
  // transaction only. So is enable_seqscan: the planner prices a trigram comparison like any cheap filter
  // and scans the whole vocabulary (about 35 ms for 35 000 words) where the index takes a few.
  const [, rows] = await db.$transaction([
    db.$executeRaw`SELECT set_config('pg_trgm.similarity_threshold', ${String(CANDIDATE_SIMILARITY)}, true),
      set_config('enable_seqscan', 'off', true)`,
    db.$queryRaw<Array<{ word: string; stop: boolean; similar: string[]; completions: string[] }>>`
      SELECT q.word,
        numnode(plainto_tsquery('english'::regconfig, q.word)) = 0 AS stop,
        ARRAY(
          SELECT s.word FROM search_words s
          WHERE s.word % q.word AND s.word <> q.word
          ORDER BY similarity(s.word, q.word) DESC, s.word
          LIMIT ${CANDIDATES_PER_WORD}
        ) AS similar,
        CASE WHEN q.ord = ${words.length} AND length(q.word) >= 3 THEN ARRAY(
          SELECT s.word FROM search_words s
          WHERE s.word LIKE q.word || '%' AND s.word <> q.word
          ORDER BY length(s.word), s.word
          LIMIT ${COMPLETIONS_PER_PREFIX}
        ) ELSE '{}'::text[] END AS completions
      FROM unnest(${words.map((w) => w.word)}::text[]) WITH ORDINALITY AS q(word, ord)
      ORDER BY q.ord`,
  ]);
  return rows.map((row, i) => ({ ...row, similar: chooseCorrections(row.word, row.similar), last: words[i]!.last }));
}

function filtersOf(query: DiscoveryQuery): Prisma.Sql[] {
  const filters = [Prisma.sql`a.status = ${query.status}::"AgentStatus"`];
  // Each repeated value narrows further: an agent must offer all of them.
  if (query.protocols.length) filters.push(Prisma.sql`a.protocols @> ${query.protocols}::text[]`);
  if (query.categories.length) filters.push(Prisma.sql`a.categories @> ${query.categories}::text[]`);
  if (query.capabilities.length) filters.push(Prisma.sql`a.capabilities @> ${query.capabilities}::text[]`);
  return filters;
}

export function createPostgresSearchEngine(db: PrismaClient): SearchEngine {
  async function run(query: DiscoveryQuery, text: { tsquery: string; exactTsquery: string | null } | null): Promise<SearchHits> {
    const filters = filtersOf(query);
    let score: Prisma.Sql | null = null;
    if (text !== null) {
      filters.push(Prisma.sql`a.search_vector @@ to_tsquery('english'::regconfig, ${text.tsquery})`);
      score = relevanceScore(textScore({ text: query.q!, ...text }));
    }
    const where = Prisma.join(filters, ' AND ');
    const offset = (query.page - 1) * query.perPage;
    const rows = await db.$queryRaw<Array<{ id: string; total: bigint }>>`
      SELECT a.id, count(*) OVER () AS total
      FROM agents a
      WHERE ${where}
      ORDER BY ${orderBy(query.sort, score)}
      LIMIT ${query.perPage} OFFSET ${offset}`;
    if (rows.length > 0) return { ids: rows.map((r) => r.id), total: Number(rows[0]!.total) };
    // Past the last page the window count has no row to ride on.
    if (offset === 0) return { ids: [], total: 0 };
    const [{ total }] = await db.$queryRaw<[{ total: bigint }]>`SELECT count(*) AS total FROM agents a WHERE ${where}`;
    return { ids: [], total: Number(total) };
  }

  return {
    name: 'postgres',
    keepsIndex: false,

    async search(query) {
      const words = query.q ? queryWords(query.q) : [];
      if (words.length === 0) return run(query, null);
      const expansions = await expandWords(db, words);
      const all = fullTextQuery(expansions, 'all');
      // Only stop words: nothing to search for, so the filters alone decide.
      if (all === null) return run(query, null);
      const exactTsquery = exactTextQuery(expansions);
      const hits = await run(query, { tsquery: all, exactTsquery });
      if (hits.total > 0 || expansions.filter((e) => !e.stop).length < 2) return hits;
      // No agent has every word: rank those that have some, as a search box user would expect.
      return run(query, { tsquery: fullTextQuery(expansions, 'any')!, exactTsquery });
    },

    // The tsvector and the vocabulary are kept by triggers in the same transaction as the write.
    async syncAgent() {},

    async reindex() {
      return db.$transaction(
        async (tx) => {
          const indexed = await tx.$executeRaw`
            UPDATE agents SET search_vector = agent_search_document(name, capabilities, tags, description, long_description)`;
          // Words of deleted agents go; everything else comes straight back.
          await tx.$executeRaw`DELETE FROM search_words`;
          await tx.$executeRaw`
            INSERT INTO search_words (word)
            SELECT DISTINCT w FROM agents a, agent_search_words(a.name, a.capabilities, a.tags, a.description, a.long_description) AS w
            ORDER BY w
            ON CONFLICT DO NOTHING`;
          return { indexed };
        },
        { timeout: 600_000 },
      );
    },
  };
}
