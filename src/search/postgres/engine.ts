// The default search engine: PostgreSQL itself (a server or the embedded PGlite). Weighted full-text
// search over a trigger-maintained tsvector (in agent_search, one narrow row per agent). Typo
// tolerance, prefixes, synonyms and compounds are worked out in this process from an in-memory index
// of the agents' vocabulary (correction-index.ts, kept current by vocabulary.ts), so the database
// answers each search with one indexed query; a second one runs only when no agent has every word of
// the query (the soft AND below).
import type { Sql } from '../../db/kysely.js';
import { rebuildSearchIndex, searchAgents, vocabularyVersion, type MatchKey } from '../../stores/search-store.js';
import type { SearchEngine, SearchHits } from '../engine.js';
import type { DiscoveryQuery } from '../query.js';
import { DROP_TOKENS_THRESHOLD, TYPO_TOKENS_THRESHOLD } from '../text/matching.js';
import { MULTI_WORD_PHRASES } from '../text/synonyms.js';
import type { CorrectionIndex } from './correction-index.js';
import { matchTier, relevance, type GroupQueries } from './order.js';
import { alternatives, namePhrase, QueryPlanner, type WordGroup } from './query-plan.js';
import { createVocabulary, loadCorrectionIndex } from './vocabulary.js';

// In the soft AND, only the rarer words decide which agents are candidates (all of them still count for
// ranking): a very common word ("data") would otherwise make the database rank most of the registry.
const CANDIDATE_BUDGET_MIN = 2000;
const CANDIDATE_BUDGET_SHARE = 0.05;
const PLAN_CACHE_SIZE = 2000;

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
  // search_vocabulary.version as the database saw it during this search; null when nothing was found
  // (the store reads it then only on request).
  version: string | null;
  // The query had words this process's vocabulary does not know: a newer vocabulary may know them.
  unknownWords?: boolean;
}

// `db`: the search's own connections (db/kysely.ts createSearchSql).
export function createPostgresSearchEngine(db: Sql): SearchEngine {
  const vocabulary = createVocabulary(() => loadCorrectionIndex(db));
  let cache: PlanCache | null = null;

  async function run(query: DiscoveryQuery, where: string | null, match: MatchKey[] | null): Promise<Ranked> {
    const { status, protocols, categories, capabilities, sort, page, perPage } = query;
    const found = await searchAgents(db, { status, protocols, categories, capabilities, where, match, sort, page, perPage });
    return { ids: found.agents.map((a) => a.id), agents: found.agents, total: found.total, version: found.vocabularyVersion };
  }

  // Agents that have every group, in any of its forms.
  function searchEveryGroup(query: DiscoveryQuery, perGroup: GroupQueries[], phrase: string | null): Promise<Ranked> {
    const any = perGroup.map((g) => g.any);
    const text = relevance(any.join(' | '));
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
    // Soft AND: agents that have some of the words, those with more of them first, then those whose
    // words are rarer (telling), then by the text score.
    const weights = groups.map((g) => Math.log(1 + index.documents / (1 + g.frequency)));
    const total = weights.reduce((sum, w) => sum + w, 0) || 1;
    const telling = any.map((tsquery, i) => ({ tsquery, weight: weights[i]! / total }));
    const candidates = candidateGroups(groups, index.documents).map(alternatives).join(' | ');
    const tier = matchTier(perGroup, false, phrase);
    const coverage: MatchKey = { kind: 'coverage', tsqueries: any };
    const score = relevance(any.join(' | '), telling);
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
      const version = first.version ?? (await vocabularyVersion(db));
      if (version === index.version) return toHits(first);
      // The vocabulary changed since this process built its index: rebuild it. When the query had words
      // the old index did not know, wait for the new one and search again, so that words new to the
      // registry are recognised at once; otherwise the answer stands and the rebuild runs behind it.
      if (!first.unknownWords) {
        // A failed rebuild is tried again by the next search, which sees the same difference.
        vocabulary.seen(version).catch(() => {});
        return toHits(first);
      }
      await vocabulary.seen(version);
      return toHits(await plannedSearch(query));
    },

    // The tsvector and the vocabulary are kept by triggers in the same transaction as the write.
    async syncAgent() {},

    async reindex() {
      const indexed = await rebuildSearchIndex(db, MULTI_WORD_PHRASES);
      await vocabulary.refresh();
      return { indexed };
    },
  };
}

const toHits = ({ ids, total, agents }: SearchHits): SearchHits => ({ ids, total, agents });
