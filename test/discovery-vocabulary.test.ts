// The postgres engine's in-memory vocabulary stays in step with the database: several engines (as in
// several processes) share one database, and each recognises words that another one's writes added,
// on its very next search. Also: spelled-right words are not corrected, and unknown words find nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from '../src/db/client.js';
import { createKysely, type Sql } from '../src/db/kysely.js';
import type { PrismaClient } from '../src/generated/prisma/client.js';
import type { SearchEngine } from '../src/search/engine.js';
import { createPostgresSearchEngine } from '../src/search/postgres/engine.js';
import { createVocabulary, loadCorrectionIndex } from '../src/search/postgres/vocabulary.js';
import { discoveryQuerySchema } from '../src/search/query.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedFixture } from './discovery-fixture.js';

let db: TestDatabase;
let prismaA: PrismaClient;
let prismaB: PrismaClient;
let sqlA: Sql;
let sqlB: Sql;
let engineA: SearchEngine;
let engineB: SearchEngine;

const names = async (engine: SearchEngine, q: string) => {
  const { ids } = await engine.search(discoveryQuerySchema.parse({ q, perPage: 10 }));
  const rows = await prismaA.agent.findMany({ where: { id: { in: ids } } });
  return ids.map((id) => rows.find((r) => r.id === id)!.name);
};

async function addAgent(id: string, name: string, description = '') {
  await prismaB.agent.create({
    data: { id, ownerId: 'usr_agvo', name, slug: id.replace(/_/g, '-'), description, endpoint: `https://agents.example.com/${id}` },
  });
}

beforeAll(async () => {
  db = await createTestDatabase();
  prismaA = createPrismaClient(db.url, 2);
  prismaB = createPrismaClient(db.url, 2);
  sqlA = createKysely(db.url, 2);
  sqlB = createKysely(db.url, 2);
  engineA = createPostgresSearchEngine(sqlA);
  engineB = createPostgresSearchEngine(sqlB);
  await seedFixture(prismaA, 'agvo');
});
afterAll(async () => {
  await prismaA?.$disconnect();
  await prismaB?.$disconnect();
  await sqlA?.destroy();
  await sqlB?.destroy();
  await db?.close();
});

describe('vocabulary freshness', () => {
  it('an engine that has already built its index recognises words added through another connection', async () => {
    // Both engines build their index now, before the new agent exists.
    expect(await names(engineA, 'zyphorix')).toEqual([]);
    expect(await names(engineB, 'zyphorix')).toEqual([]);
    await addAgent('agvo_new1', 'Zyphorix Scribe', 'Transcribes meetings');
    // As typed, and with a typo (which needs the word in the in-memory index).
    expect(await names(engineA, 'zyphorix')).toEqual(['Zyphorix Scribe']);
    expect(await names(engineA, 'zyphorx scribe')).toEqual(['Zyphorix Scribe']);
    expect(await names(engineB, 'zypohrix')).toEqual(['Zyphorix Scribe']);
  });

  it('bumps the vocabulary version only when a write adds a word', async () => {
    const version = async () => (await prismaA.$queryRaw<[{ v: bigint }]>`SELECT version AS v FROM search_vocabulary WHERE id = 1`)[0].v;
    const before = await version();
    await prismaB.agent.update({ where: { id: 'agvo_new1' }, data: { description: 'Transcribes meetings' } });
    expect(await version()).toBe(before);
    await prismaB.agent.update({ where: { id: 'agvo_new1' }, data: { description: 'Transcribes quarterly meetings' } });
    expect(await version()).toBe(before + 1n);
  });
});

describe('a rebuild under way', () => {
  it('does not satisfy a newer version it started before: the index is rebuilt again', async () => {
    // The real database, with the rebuild's result held back on demand; `read` resolves once a held
    // rebuild has read its rows, so the stale rebuild has surely read the vocabulary before the new word below.
    let holding = false;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let heldRead!: () => void;
    const read = new Promise<void>((resolve) => (heldRead = resolve));
    const vocabulary = createVocabulary(async () => {
      const index = await loadCorrectionIndex(sqlA);
      if (holding) {
        heldRead();
        await gate;
      }
      return index;
    });
    const before = (await vocabulary.current()).version;
    holding = true;
    const stale = vocabulary.refresh();
    await read;
    await addAgent('agvo_gate', 'Quorvex Gatekeeper');
    const [{ v }] = await prismaA.$queryRaw<[{ v: bigint }]>`SELECT version AS v FROM search_vocabulary WHERE id = 1`;
    expect(v).toBeGreaterThan(BigInt(before));
    const seen = vocabulary.seen(String(v));
    holding = false;
    open();
    await Promise.all([stale, seen]);
    expect((await vocabulary.current()).version).toBe(String(v));
  });
});

describe('corrections', () => {
  it('does not correct a word that an agent uses, even when another word is one typo away', async () => {
    await addAgent('agvo_help', 'Help Center', 'Answers questions');
    await addAgent('agvo_helm', 'Helm Charts', 'Deploys to clusters');
    // The last word is also completed ("help" → Helper Bot), but never corrected to helm.
    const help = await names(engineA, 'help');
    expect(help[0]).toBe('Help Center');
    expect(help).not.toContain('Helm Charts');
    expect(await names(engineA, 'helm')).toEqual(['Helm Charts']);
    // A word no agent uses is corrected.
    expect(await names(engineA, 'hekp')).toEqual(['Help Center']);
  });

  it('finds nothing for a query of words no agent uses, even next to stop words', async () => {
    expect(await names(engineA, 'the qwxzvbn for plokrest')).toEqual([]);
  });

  it('drops an incidental word no agent has, rather than the agent', async () => {
    expect(await names(engineA, 'zyphorix scribe automatically')).toEqual(['Zyphorix Scribe']);
  });
});

describe('looser forms', () => {
  // Only these test agents: they alone have this capability.
  const only = { capabilities: ['quillmark-test'], perPage: 10 };
  const search = (q: string) => engineA.search(discoveryQuerySchema.parse({ q, ...only }));
  const add = (id: string, name: string, description: string) =>
    prismaB.agent.create({
      data: { id, ownerId: 'usr_agvo', name, slug: id.replace(/_/g, '-'), description, capabilities: ['quillmark-test'], endpoint: `https://agents.example.com/${id}` },
    });

  it("a synonym phrase's words apart count only while no agent has the phrase or a synonym of it", async () => {
    await add('agvo_qm_narrator', 'Quillmark Narrator', 'Reads your text in a calm voice.');
    // Nothing closer: the words anywhere in the listing.
    expect(await search('voice to text')).toMatchObject({ ids: ['agvo_qm_narrator'], total: 1 });
    await add('agvo_qm_scribe', 'Quillmark Scribe', 'Turns speech to text for meetings.');
    // A synonym phrase now matches: the narrator, which only has the words, is left out.
    expect(await search('voice to text')).toMatchObject({ ids: ['agvo_qm_scribe'], total: 1 });
  });

  it('two typos count only while one typo finds nothing', async () => {
    // "zorbatrex" is two typos from zorbatron and one from zorbatrix.
    await add('agvo_qm_tron', 'Zorbatron Relay', 'Relays messages.');
    expect(await search('zorbatrex')).toMatchObject({ ids: ['agvo_qm_tron'], total: 1 });
    await add('agvo_qm_trix', 'Zorbatrix Relay', 'Relays messages.');
    // The query had no unknown word (it had a correction), so the engine answers the first search with
    // its index as it was and rebuilds it behind the answer.
    await expect.poll(async () => (await search('zorbatrex')).ids).toEqual(['agvo_qm_trix']);
    expect((await search('zorbatrex')).total).toBe(1);
  });
});

