// The search result cache on its own (no database): what it serves again, and what makes it ask the
// engine again. That a write in the database reaches it is search-cache-invalidation.test.ts.
import { describe, expect, it } from 'vitest';
import type { SearchNews } from '../src/events/bus.js';
import type { SearchEngine } from '../src/search/engine.js';
import { discoveryQuerySchema } from '../src/search/query.js';
import { withResultCache } from '../src/search/result-cache.js';

const query = (input: Record<string, unknown>) => discoveryQuerySchema.parse(input);

// An engine that answers each search with a new answer (numbered), or holds it until released.
function countingEngine() {
  let calls = 0;
  const held: Array<() => void> = [];
  let holding = false;
  let failing = false;
  const engine: SearchEngine = {
    name: 'postgres',
    keepsIndex: false,
    async search(q) {
      const n = ++calls;
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      if (failing) throw new Error('database unreachable');
      return { ids: [`${q.q}#${n}`], total: 1 };
    },
    async syncAgent() {},
    async reindex() {
      return { indexed: 0 };
    },
  };
  return {
    engine,
    calls: () => calls,
    hold: () => void (holding = true),
    release: () => {
      holding = false;
      for (const resolve of held.splice(0)) resolve();
    },
    fail: (on: boolean) => void (failing = on),
  };
}

function setup(opts: { hearing?: boolean; ttlMs?: number; maxAgents?: number } = {}) {
  const source = countingEngine();
  let now = 0;
  let tell: (news: SearchNews) => void = () => {};
  const cached = withResultCache(source.engine, {
    clock: { now: () => new Date(now) },
    ttlMs: opts.ttlMs ?? 1000,
    maxAgents: opts.maxAgents ?? 100,
    // The longest lifetime, so that tests know when a result is past its time.
    random: () => 1,
    watch(listener) {
      tell = listener;
      return opts.hearing ?? true;
    },
  });
  const ids = async (input: Record<string, unknown>) => (await cached.search(query(input))).ids;
  return { ...source, cached, ids, tell: (news: SearchNews) => tell(news), advance: (ms: number) => void (now += ms) };
}

describe('search result cache', () => {
  it('answers a repeated search from memory, and each distinct search (words, filters, page, order) from the engine', async () => {
    const c = setup();
    expect(await c.ids({ q: 'translate' })).toEqual(['translate#1']);
    expect(await c.ids({ q: 'translate' })).toEqual(['translate#1']);
    expect(c.calls()).toBe(1);
    await c.ids({ q: 'translate', page: 2 });
    await c.ids({ q: 'translate', sort: 'rating' });
    await c.ids({ q: 'translate', protocols: ['http'] });
    await c.ids({ q: 'translate', status: 'inactive' });
    await c.ids({ q: 'translate', perPage: 5 });
    await c.ids({ q: 'translator' });
    expect(c.calls()).toBe(7);
    // Normalised by the query schema: the same search.
    await c.ids({ q: '  translate ', protocols: ['HTTP', 'http'] });
    expect(c.calls()).toBe(7);
  });

  it('asks the engine again after a change is announced', async () => {
    const c = setup();
    await c.ids({ q: 'translate' });
    c.tell('changed');
    expect(await c.ids({ q: 'translate' })).toEqual(['translate#2']);
  });

  it('never keeps a result whose search began before an announced change', async () => {
    const c = setup();
    c.hold();
    const before = c.ids({ q: 'translate' });
    c.tell('changed');
    c.release();
    expect(await before).toEqual(['translate#1']);
    expect(await c.ids({ q: 'translate' })).toEqual(['translate#2']);
    expect(await c.ids({ q: 'translate' })).toEqual(['translate#2']);
  });

  it('serves and keeps nothing while it may miss announcements, and again once it hears them', async () => {
    const c = setup();
    await c.ids({ q: 'translate' });
    c.tell('lost');
    expect(await c.ids({ q: 'translate' })).toEqual(['translate#2']);
    expect(await c.ids({ q: 'translate' })).toEqual(['translate#3']);
    c.tell('changed');
    expect(await c.ids({ q: 'translate' })).toEqual(['translate#4']);
    expect(await c.ids({ q: 'translate' })).toEqual(['translate#4']);
  });

  it('keeps nothing when the bus cannot hear the database, or the time limit is 0', async () => {
    for (const c of [setup({ hearing: false }), setup({ ttlMs: 0 })]) {
      await c.ids({ q: 'translate' });
      await c.ids({ q: 'translate' });
      expect(c.calls()).toBe(2);
    }
  });

  it('past its time serves a result once more while it is searched again, and past twice that waits', async () => {
    const c = setup({ ttlMs: 1000 });
    await c.ids({ q: 'translate' });
    c.advance(999);
    expect(await c.ids({ q: 'translate' })).toEqual(['translate#1']);
    expect(c.calls()).toBe(1);
    c.advance(1);
    expect(await c.ids({ q: 'translate' })).toEqual(['translate#1']);
    expect(c.calls()).toBe(2);
    expect(await c.ids({ q: 'translate' })).toEqual(['translate#2']);
    c.advance(2000);
    expect(await c.ids({ q: 'translate' })).toEqual(['translate#3']);
  });

  it('runs one search for the same query asked again while it is under way', async () => {
    const c = setup();
    c.hold();
    const answers = Promise.all([c.ids({ q: 'data' }), c.ids({ q: 'data' }), c.ids({ q: 'data' })]);
    c.release();
    expect(await answers).toEqual([['data#1'], ['data#1'], ['data#1']]);
    expect(c.calls()).toBe(1);
  });

  it('does not keep a failed search', async () => {
    const c = setup();
    c.fail(true);
    await expect(c.ids({ q: 'data' })).rejects.toThrow('database unreachable');
    c.fail(false);
    expect(await c.ids({ q: 'data' })).toEqual(['data#2']);
  });

  it('holds at most maxAgents agents, letting the least recently used results go', async () => {
    const c = setup({ maxAgents: 2 });
    await c.ids({ q: 'a' });
    await c.ids({ q: 'b' });
    await c.ids({ q: 'a' });
    await c.ids({ q: 'c' });
    expect(c.calls()).toBe(3);
    await c.ids({ q: 'a' });
    expect(c.calls()).toBe(3);
    expect(await c.ids({ q: 'b' })).toEqual(['b#4']);
  });
});
