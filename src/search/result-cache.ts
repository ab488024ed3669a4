// Recent search results, answered again without asking the database while nothing they depend on has
// changed. Discovery is public (every caller gets the same results for the same query), and a few broad
// queries ("data", "voice to text") rank thousands of agents each: under load those set the latency of
// everything queued behind them, and popular queries repeat.
//
// What keeps it correct: the search_changed triggers announce every committed write that changes what a
// search matches or shows (an agent added, removed, or its content or visibility changed; the vocabulary;
// the phrases), and the event bus passes that on ('changed'). The figures every task moves (counts, trust,
// health, endpoint state) are not announced: they reach a result when it is searched again, after the
// time limit (migration search_changed_content_only). Each announcement starts a new generation; a result
// is kept only under the generation that was current when its search started, so a result read before a
// write committed is never served after the write was announced, even if the search finished later.
// While the bus may be missing announcements ('lost', or a bus that cannot hear the database at all)
// nothing is kept or served. A result past the time limit is searched again.
import type { Clock } from '../deps.js';
import type { SearchNews } from '../events/bus.js';
import type { SearchEngine, SearchHits } from './engine.js';
import type { DiscoveryQuery } from './query.js';

export interface ResultCacheOptions {
  clock: Clock;
  ttlMs: number;
  // At most this many agents held over all results (what a result weighs is its page of agents).
  maxAgents: number;
  // Subscribes to the bus's news of search changes; whether the bus hears them now (see EventBus).
  watch(listener: (news: SearchNews) => void): boolean;
}

interface Entry {
  generation: number;
  // When it is searched again (clock time, ms); until ttlMs after that it is still served meanwhile.
  expiresAt: number;
  hits: SearchHits;
}

// The query's fields in a fixed order: the parsed query is already normalised (trimmed, filters
// lower-cased and deduplicated, defaults filled), so equal keys are equal searches.
function keyOf(q: DiscoveryQuery): string {
  return JSON.stringify([q.q, q.protocols, q.categories, q.capabilities, q.status, q.page, q.perPage, q.sort]);
}

export function withResultCache(engine: SearchEngine, opts: ResultCacheOptions & { random?: () => number }): SearchEngine {
  const random = opts.random ?? Math.random;
  const entries = new Map<string, Entry>();
  // Searches under way, by key: the same query asked again meanwhile waits for that answer rather than
  // running again (a popular broad query arriving in a burst costs the database once).
  const running = new Map<string, { generation: number; hits: Promise<SearchHits> }>();
  let held = 0;
  let generation = 0;
  const weight = (hits: SearchHits) => Math.max(1, hits.agents?.length ?? hits.ids.length);
  const forget = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    held -= weight(entry.hits);
  };
  let hearing = opts.watch((news) => {
    generation++;
    entries.clear();
    running.clear();
    held = 0;
    hearing = news === 'changed';
  });

  function keep(key: string, started: number, hits: SearchHits) {
    if (!hearing || generation !== started || weight(hits) > opts.maxAgents) return;
    forget(key);
    // The least recently used go first.
    while (held + weight(hits) > opts.maxAgents) forget(entries.keys().next().value!);
    // Each result lives between half and all of the time limit, so that results stored together (after
    // a write, or a restart) are not all searched again in the same moment.
    const lifetime = opts.ttlMs * (0.5 + random() / 2);
    entries.set(key, { generation: started, expiresAt: opts.clock.now().getTime() + lifetime, hits });
    held += weight(hits);
  }

  // The search of this key under way in this generation, or a new one whose result is kept.
  function searchOnce(key: string, query: DiscoveryQuery): Promise<SearchHits> {
    const under = running.get(key);
    if (under && under.generation === generation) return under.hits;
    const started = generation;
    const hits = engine.search(query).then((answer) => {
      keep(key, started, answer);
      return answer;
    });
    running.set(key, { generation: started, hits });
    const done = () => {
      if (running.get(key)?.hits === hits) running.delete(key);
    };
    hits.then(done, done);
    return hits;
  }

  return {
    name: engine.name,
    keepsIndex: engine.keepsIndex,
    async search(query) {
      if (!hearing || opts.ttlMs <= 0) return engine.search(query);
      const key = keyOf(query);
      const entry = entries.get(key);
      const now = opts.clock.now().getTime();
      if (entry && entry.generation === generation && now < entry.expiresAt + opts.ttlMs) {
        // Most recently used last: the first key is the one to evict.
        entries.delete(key);
        entries.set(key, entry);
        // Past its time a result is searched again behind this answer, which is still right (no write
        // was announced since its search began): only a request with nothing to be given waits for a search.
        if (now >= entry.expiresAt) void searchOnce(key, query).catch(() => {});
        return entry.hits;
      }
      forget(key);
      return searchOnce(key, query);
    },
    syncAgent: (agentId) => engine.syncAgent(agentId),
    reindex: () => engine.reindex(),
  };
}
