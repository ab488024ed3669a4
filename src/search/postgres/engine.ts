// The default search engine: PostgreSQL itself (a server or the embedded PGlite). Weighted full-text
// search over a trigger-maintained tsvector (in agent_search, one narrow row per agent). Typo
// tolerance, prefixes, synonyms and compounds are worked out in this process from an in-memory index
// of the agents' vocabulary (correction-index.ts, kept current by vocabulary.ts), so the database
// answers each search with one indexed query; a second one runs only when no agent has every word of
// the query (the soft AND below).
import type { PrismaClient } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { SearchEngine, SearchHits } from '../engine.js';
import type { DiscoveryQuery } from '../query.js';
import { DROP_TOKENS_THRESHOLD, TYPO_TOKENS_THRESHOLD } from '../text/matching.js';
import { MULTI_WORD_PHRASES } from '../text/synonyms.js';
import { AGENT_SELECT, agentOf } from './agent-columns.js';
import type { CorrectionIndex } from './correction-index.js';
import { matchTier, relevanceScore, sortKeys, textScore, type GroupQueries } from './order.js';
import { alternatives, namePhrase, QueryPlanner, type WordGroup } from './query-plan.js';
import { createVocabulary } from './vocabulary.js';

// In the soft AND, only the rarer words decide which agents are candidates (all of them still count for
// ranking): a very common word ("data") would otherwise make the database rank most of the registry.
const CANDIDATE_BUDGET_MIN = 2000;
const CANDIDATE_BUDGET_SHARE = 0.05;
const PLAN_CACHE_SIZE = 2000;

function filtersOf(query: DiscoveryQuery): Prisma.Sql[] {
  const filters = [Prisma.sql`a.status = ${query.status}::"AgentStatus"`];
  // Each repeated value narrows further: an agent must offer all of them.
  if (query.protocols.length) filters.push(Prisma.sql`a.protocols @> ${query.protocols}::text[]`);
  if (query.categories.length) filters.push(Prisma.sql`a.categories @> ${query.categories}::text[]`);
  if (query.capabilities.length) filters.push(Prisma.sql`a.capabilities @> ${query.capabilities}::text[]`);
  return filters;
}

function groupQueries(group: WordGroup): GroupQueries {
  const or = (terms: string[]) => (terms.length === 0 ? null : terms.length === 1 ? terms[0]! : `(${terms.join(' | ')})`);
  return { lead: group.lead ?? null, exact: or(group.exact), near: or([...group.exact, ...group.near]), any: alternatives(group) };
}

// The rarest groups whose agents together stay within the budget (at least the rarest one).
function candidateGroups(groups: WordGroup[], documents: number): WordGroup[] {
  const budget = Math.max(CANDIDATE_BUDGET_MIN, documents * CANDIDATE_BUDGET_SHARE);
  const byRarity = [...groups].sort((a, b) => a.frequency - b.frequency);
  const chosen: WordGroup[] = [];
  let spent = 0;
  for (const group of byRarity) {
    if (chosen.length > 0 && spent + group.frequency > budget) break;
    chosen.push(group);
    spent += group.frequency;
  }
  return chosen;
}

// A small LRU of query plans: popular queries skip the planning (corrections, completions) entirely.
class PlanCache {
  private readonly plans = new Map<string, WordGroup[]>();
  constructor(readonly index: CorrectionIndex) {}
  plan(q: string): WordGroup[] {
    const key = q.toLowerCase();
    let groups = this.plans.get(key);
    if (groups) {
      this.plans.delete(key);
    } else {
      groups = new QueryPlanner(this.index).plan(q);
      if (this.plans.size >= PLAN_CACHE_SIZE) this.plans.delete(this.plans.keys().next().value!);
    }
    this.plans.set(key, groups);
    return groups;
  }
}

interface Ranked extends SearchHits {
  // search_vocabulary.version as the database saw it during this search.
  version: string;
  // The query had words this process's vocabulary does not know: a newer vocabulary may know them.
  unknownWords?: boolean;
}

export function createPostgresSearchEngine(db: PrismaClient): SearchEngine {
  const vocabulary = createVocabulary(db);
  let cache: PlanCache | null = null;

  async function run(query: DiscoveryQuery, where: string | null, match: Prisma.Sql[] | null): Promise<Ranked> {
    const filters = filtersOf(query);
    if (where !== null) filters.push(Prisma.sql`a.search_vector @@ ${where}::tsquery`);
    const matching = Prisma.join(filters, ' AND ');
    // Text searches rank on the narrow agent_search rows (the document and the columns filters and sorts
    // use, under the same names); browsing without words keeps to agents and its array indexes.
    const table = where === null ? Prisma.sql`agents` : Prisma.sql`agent_search`;
    const offset = (query.page - 1) * query.perPage;
    const keys = sortKeys(query.sort, match);
    const computed = Prisma.join(keys.map((k, i) => Prisma.sql`${k.value} AS ${Prisma.raw(`k${i}`)}`), ', ');
    const order = Prisma.join([...keys.map((k, i) => Prisma.sql`${Prisma.raw(`m.k${i}`)} ${k.direction}`), Prisma.sql`m.id`], ', ');
    // One round trip: the vocabulary version, the total, and the page's agents in rank order. The sort
    // keys are computed once per matching agent in an inner query that the planner keeps apart (OFFSET 0),
    // so that what the window count holds and the sort orders is the id and the keys: carried through
    // them, the agents' whole rows (the tsvector included) spilled to disk for broad queries and made
    // them 14-26 % slower. The agents' rows are joined for the page alone. The window count rides
    // on the ranking's one pass over the matches (a count of its own was a second pass). The vocabulary
    // version has an alias of its own: agents have a `version` too.
    const rows = await db.$queryRaw<Array<{ vocabulary_version: string; total: bigint | null; position: bigint | null } & Record<string, unknown>>>`
      SELECT v.vocabulary_version, p.total, r.position, ${AGENT_SELECT}
      FROM (SELECT version::text AS vocabulary_version FROM search_vocabulary WHERE id = 1) v
      CROSS JOIN LATERAL (
        SELECT array_agg(ranked.id) AS ids, max(ranked.total) AS total
        FROM (
          SELECT m.id, count(*) OVER () AS total
          FROM (SELECT a.id, ${computed} FROM ${table} a WHERE ${matching} OFFSET 0) m
          ORDER BY ${order}
          LIMIT ${query.perPage} OFFSET ${offset}
        ) ranked
      ) p
      LEFT JOIN LATERAL unnest(p.ids) WITH ORDINALITY AS r(id, position) ON true
      LEFT JOIN agents a ON a.id = r.id
      ORDER BY r.position`;
    const version = rows[0]?.vocabulary_version ?? '0';
    // Without a match, the one row carries the version only.
    const agents = rows.filter((r) => r.position !== null).map(agentOf);
    if (agents.length > 0 || offset === 0) return { ids: agents.map((a) => a.id), agents, total: Number(rows[0]?.total ?? 0), version };
    // Past the last page the window count has no row to ride on.
    const [{ total }] = await db.$queryRaw<[{ total: bigint }]>`SELECT count(*) AS total FROM ${table} a WHERE ${matching}`;
    return { ids: [], agents: [], total: Number(total), version };
  }

  // Agents that have every group, in any of its forms.
  function searchEveryGroup(query: DiscoveryQuery, perGroup: GroupQueries[], phrase: string | null): Promise<Ranked> {
    const any = perGroup.map((g) => g.any);
    const text = relevanceScore(textScore(any.join(' | ')));
    const tier = matchTier(perGroup, true, phrase);
    return run(query, any.join(' & '), tier ? [tier, text] : [text]);
  }

  async function searchText(query: DiscoveryQuery, groups: WordGroup[], index: CorrectionIndex): Promise<Ranked> {
    // The closer forms alone first, when a group has looser ones and the closer ones are in the
    // vocabulary; the looser forms only when that finds too few (TYPO_TOKENS_THRESHOLD). Besides
    // precision this is speed: "voice to text" has its words somewhere in 7 800 of 100 000 generated
    // agents but as the phrase or a synonym in 4 400, and each agent ranked costs a few microseconds.
    const close = groups.map((g) => (g.far.length > 0 && g.closeFrequency > 0 ? { ...g, far: [] } : g));
    if (close.some((g, i) => g !== groups[i])) {
      const closer = await searchEveryGroup(query, close.map(groupQueries), namePhrase(close));
      if (closer.total >= TYPO_TOKENS_THRESHOLD) return closer;
    }
    const perGroup = groups.map(groupQueries);
    const phrase = namePhrase(groups);
    const every = await searchEveryGroup(query, perGroup, phrase);
    if (every.total >= DROP_TOKENS_THRESHOLD || groups.length < 2) return every;
    const any = perGroup.map((g) => g.any);
    const text = textScore(any.join(' | '));
    // Soft AND: agents that have some of the words, those with more of them first, then those whose
    // words are rarer (telling), then by the text score.
    const covers = any.map((g) => Prisma.sql`(a.search_vector @@ ${g}::tsquery)::int`);
    const weights = groups.map((g) => Math.log(1 + index.documents / (1 + g.frequency)));
    const total = weights.reduce((sum, w) => sum + w, 0) || 1;
    const telling = Prisma.join(
      covers.map((cover, i) => Prisma.sql`${weights[i]! / total}::float8 * ${cover}`),
      ' + ',
    );
    const candidates = candidateGroups(groups, index.documents).map(alternatives).join(' | ');
    const tier = matchTier(perGroup, false, phrase);
    const coverage = Prisma.sql`(${Prisma.join(covers, ' + ')})`;
    const score = relevanceScore(Prisma.sql`(${text} + ${telling})`);
    return run(query, candidates, tier ? [coverage, tier, score] : [coverage, score]);
  }

  async function plannedSearch(query: DiscoveryQuery): Promise<Ranked> {
    const index = await vocabulary.current();
    if (cache?.index !== index) cache = new PlanCache(index);
    const planned = cache.plan(query.q!);
    // Only stop words: nothing to search for, so the filters alone decide.
    if (planned.length === 0) return run(query, null, null);
    // Words that can match nothing are left out, unless nothing else is left: a query of unknown words
    // then asks the database for them as typed, finds nothing, and learns the vocabulary version.
    const live = planned.filter((g) => g.live);
    const ranked = await searchText(query, live.length > 0 ? live : planned, index);
    return { ...ranked, unknownWords: live.length < planned.length };
  }

  return {
    name: 'postgres',
    keepsIndex: false,

    async search(query) {
      if (!query.q) return toHits(await run(query, null, null));
      const index = await vocabulary.current();
      const first = await plannedSearch(query);
      if (first.version === index.version) return toHits(first);
      // The vocabulary changed since this process built its index: rebuild it. When the query had words
      // the old index did not know, wait for the new one and search again, so that words new to the
      // registry are recognised at once; otherwise the answer stands and the rebuild runs behind it.
      if (!first.unknownWords) {
        // A failed rebuild is tried again by the next search, which sees the same difference.
        vocabulary.seen(first.version).catch(() => {});
        return toHits(first);
      }
      await vocabulary.seen(first.version);
      return toHits(await plannedSearch(query));
    },

    // The tsvector and the vocabulary are kept by triggers in the same transaction as the write.
    async syncAgent() {},

    async reindex() {
      const result = await db.$transaction(
        async (tx) => {
          // The phrases as synonyms.ts has them now, before the documents that hold them are rebuilt.
          await tx.$executeRaw`DELETE FROM search_phrases`;
          await tx.$executeRaw`
            INSERT INTO search_phrases (phrase, query)
            SELECT p, phraseto_tsquery('english'::regconfig, p) FROM unnest(${[...MULTI_WORD_PHRASES]}::text[]) AS p`;
          const indexed = await tx.$executeRaw`
            UPDATE agent_search s SET search_vector = agent_search_document(a.name, a.capabilities, a.tags, a.description, a.long_description)
            FROM agents a WHERE a.id = s.id`;
          // Words of deleted agents go; everything else comes straight back.
          await tx.$executeRaw`DELETE FROM search_words`;
          await tx.$executeRaw`
            INSERT INTO search_words (word)
            SELECT DISTINCT w FROM agents a, agent_search_words(a.name, a.capabilities, a.tags, a.description, a.long_description) AS w
            ORDER BY w
            ON CONFLICT DO NOTHING`;
          await tx.$executeRaw`UPDATE search_vocabulary SET version = version + 1 WHERE id = 1`;
          return { indexed };
        },
        { timeout: 600_000 },
      );
      await vocabulary.refresh();
      return result;
    },
  };
}

const toHits = ({ ids, total, agents }: SearchHits): SearchHits => ({ ids, total, agents });
