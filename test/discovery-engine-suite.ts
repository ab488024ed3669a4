// The behaviour every search engine must show, run against each engine by its own test file: typo
// tolerance, field weights, prefix matching, exact filters, each sort, pagination and totals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '../src/generated/prisma/client.js';
import type { SearchEngine } from '../src/search/engine.js';
import { discoveryQuerySchema, type DiscoveryQueryInput } from '../src/search/query.js';
import { ratingLowerBound, seedFixture, type FixtureAgent } from './discovery-fixture.js';

export interface EngineHarness {
  engine: SearchEngine;
  prisma: PrismaClient;
  // After the fixture is in the database: engines with their own index take it in here.
  indexSeeded(): Promise<void>;
  close(): Promise<void>;
}

export function describeSearchEngine(name: string, start: () => Promise<EngineHarness>, opts: { skip?: boolean } = {}) {
  describe.skipIf(opts.skip === true)(`search engine: ${name}`, () => {
    let harness: EngineHarness;
    let agents: FixtureAgent[];
    const byName = (n: string) => agents.find((a) => a.name === n)!;
    const active = () => agents.filter((a) => a.status === 'active');

    const search = (input: DiscoveryQueryInput) => harness.engine.search(discoveryQuerySchema.parse(input));
    const names = async (input: DiscoveryQueryInput) => {
      const { ids } = await search({ perPage: 100, ...input });
      return ids.map((id) => agents.find((a) => a.id === id)?.name ?? id);
    };
    const rankOf = async (q: string, target: string) => (await names({ q, perPage: 10 })).indexOf(target);

    beforeAll(async () => {
      harness = await start();
      agents = await seedFixture(harness.prisma, `ag${name.slice(0, 2)}`);
      await harness.indexSeeded();
    });
    afterAll(() => harness?.close());

    describe('typo tolerance', () => {
      it.each([
        ['tranlsator', 'Polyglot Translator'],
        ['polyglott transaltor', 'Polyglot Translator'],
        ['imge generaton', 'Pixel Forge'],
        ['pixle froge', 'Pixel Forge'],
        ['sumarizer', 'Summarizer Pro'],
        ['summarisation', 'Summarizer Pro'],
        ['speach synthesys', 'Voice Studio'],
        ['invoce parsr', 'Invoice Parser'],
        ['code reveiw', 'Code Reviewer'],
      ])('"%s" finds %s in the top 5', async (q, target) => {
        const rank = await rankOf(q, target);
        expect(rank).toBeGreaterThanOrEqual(0);
        expect(rank).toBeLessThan(5);
      });

      it('finds nothing for words that resemble nothing', async () => {
        const hits = await search({ q: 'zqxjkvw' });
        expect(hits).toMatchObject({ ids: [], total: 0 });
        expect(hits.agents ?? []).toEqual([]);
      });
    });

    // Engines that return the page's agents with the ids (one round trip) must return exactly what
    // discovery would otherwise read with findMany.
    it.each([{ q: 'translator' }, { q: 'summ' }, { sort: 'rating' as const }, { page: 2, perPage: 3 }])('agents returned with %o are the database rows', async (input) => {
      const hits = await search({ perPage: 20, ...input });
      if (!hits.agents) return;
      const rows = await harness.prisma.agent.findMany({ where: { id: { in: hits.ids } } });
      expect(hits.agents.map((a) => a.id)).toEqual(hits.ids);
      expect(hits.agents).toEqual(hits.ids.map((id) => rows.find((r) => r.id === id)));
    });

    describe('ranking', () => {
      it('the exact name comes first', async () => {
        expect((await names({ q: 'voice studio' }))[0]).toBe('Voice Studio');
        expect((await names({ q: 'code reviewer' }))[0]).toBe('Code Reviewer');
      });

      it('a name match outranks a description match, despite a better quality prior', async () => {
        // Helper Bot has the best trust score and rating but mentions translating only in its description.
        const order = await names({ q: 'translator' });
        expect(order.indexOf('Polyglot Translator')).toBeGreaterThanOrEqual(0);
        const helper = order.indexOf('Helper Bot');
        if (helper >= 0) expect(order.indexOf('Polyglot Translator')).toBeLessThan(helper);
      });

      it('capabilities outrank the long description', async () => {
        const order = await names({ q: 'image generation' });
        expect(order[0]).toBe('Pixel Forge');
        if (order.includes('Gallery Curator')) expect(order.indexOf('Pixel Forge')).toBeLessThan(order.indexOf('Gallery Curator'));
      });

      it('the last word matches as a prefix', async () => {
        expect((await names({ q: 'pixel fo' }))[0]).toBe('Pixel Forge');
        expect((await names({ q: 'summ' }))).toContain('Summarizer Pro');
        expect((await names({ q: 'invoice pars' }))[0]).toBe('Invoice Parser');
      });
    });

    describe('filters', () => {
      const expectExactly = async (input: DiscoveryQueryInput, expected: FixtureAgent[]) => {
        const hits = await search({ perPage: 100, ...input });
        expect([...hits.ids].sort()).toEqual(expected.map((a) => a.id).sort());
        expect(hits.total).toBe(expected.length);
      };

      it('lists only active agents without a status', async () => {
        await expectExactly({}, active());
      });

      it.each(['inactive', 'deprecated'] as const)('lists only %s agents when that status is asked for', async (status) => {
        await expectExactly({ status }, agents.filter((a) => a.status === status));
      });

      it('narrows by protocol, case-insensitively', async () => {
        const expected = active().filter((a) => a.protocols.includes('mcp'));
        expect(expected.length).toBeGreaterThan(1);
        await expectExactly({ protocols: ['mcp'] }, expected);
        await expectExactly({ protocols: ['MCP'] }, expected);
      });

      it('narrows by category and by capability', async () => {
        await expectExactly({ categories: ['creative'] }, active().filter((a) => a.categories.includes('creative')));
        await expectExactly({ capabilities: ['Image-Generation'] }, [byName('Pixel Forge')]);
      });

      it('requires every repeated value', async () => {
        await expectExactly({ protocols: ['rest', 'a2a'] }, [byName('Gallery Curator')]);
        await expectExactly({ capabilities: ['translation', 'german'] }, [byName('Polyglot Translator')]);
        await expectExactly({ capabilities: ['translation', 'ocr'] }, []);
      });

      it('combines filters with each other and with q', async () => {
        await expectExactly({ protocols: ['rest'], categories: ['creative'] }, [byName('Pixel Forge'), byName('Gallery Curator')]);
        await expectExactly({ q: 'translator', protocols: ['mcp'] }, [byName('Polyglot Translator')]);
        await expectExactly({ q: 'translator', status: 'inactive' }, [byName('Legal Translator')]);
        await expectExactly({ q: 'imge', protocols: ['grpc'] }, []);
      });
    });

    describe('sorting', () => {
      const ids = async (input: DiscoveryQueryInput) => (await search({ perPage: 100, ...input })).ids;

      it('rating: best bounded rating first (the lower bound of the Bayesian average), unrated last', async () => {
        const order = await ids({ sort: 'rating' });
        const ratings = order.map((id) => ratingLowerBound(agents.find((a) => a.id === id)!));
        const rated = ratings.filter((r): r is number => r !== null);
        expect(rated).toEqual([...rated].sort((a, b) => b - a));
        expect(ratings.slice(rated.length).every((r) => r === null)).toBe(true);
        expect(rated.length).toBe(active().filter((a) => a.ratingCount > 0).length);
      });

      it('tasks: most tasks first', async () => {
        const order = await ids({ sort: 'tasks' });
        const counts = order.map((id) => agents.find((a) => a.id === id)!.taskCount);
        expect(counts).toEqual([...counts].sort((a, b) => b - a));
        expect(order[0]).toBe(byName('Helper Bot').id);
      });

      it('created and updated: newest first, each by its own date', async () => {
        const newest = (key: 'createdAt' | 'updatedAt') =>
          [...active()].sort((a, b) => b[key].getTime() - a[key].getTime()).map((a) => a.id);
        expect(await ids({ sort: 'created' })).toEqual(newest('createdAt'));
        expect(await ids({ sort: 'updated' })).toEqual(newest('updatedAt'));
        expect(newest('createdAt')).not.toEqual(newest('updatedAt'));
      });

      it('relevance without q: highest trust first', async () => {
        const order = await ids({ sort: 'relevance' });
        const trust = order.map((id) => agents.find((a) => a.id === id)!.trustScore);
        expect(trust).toEqual([...trust].sort((a, b) => b - a));
      });

      it('a sort applies within the matches of q', async () => {
        const order = await ids({ q: 'art', sort: 'tasks' });
        expect(order).toEqual([byName('Pixel Forge').id, byName('Gallery Curator').id]);
      });
    });

    describe('pagination and totals', () => {
      it('pages partition the full result, and total agrees with it', async () => {
        const all = await search({ perPage: 100 });
        expect(all.total).toBe(active().length);
        expect(all.ids).toHaveLength(all.total);
        const perPage = 7;
        const pages = Math.ceil(all.total / perPage);
        const seen: string[] = [];
        for (let page = 1; page <= pages; page++) {
          const hits = await search({ perPage, page });
          expect(hits.total).toBe(all.total);
          expect(hits.ids.length).toBe(page < pages ? perPage : all.total - perPage * (pages - 1));
          seen.push(...hits.ids);
        }
        expect(seen).toEqual(all.ids);
      });

      it('a page past the end is empty but keeps the total', async () => {
        const hits = await search({ perPage: 10, page: 50 });
        expect(hits.ids).toEqual([]);
        expect(hits.total).toBe(active().length);
      });

      it('totals count every match of q, not just the page', async () => {
        const all = await search({ q: 'filler', perPage: 100 });
        expect(all.total).toBe(16);
        const first = await search({ q: 'filler', perPage: 5 });
        expect(first.total).toBe(16);
        expect(first.ids).toEqual(all.ids.slice(0, 5));
      });
    });
  });
}
