// The synonym table's phrases of several words are lexemes of the documents that have them
// (search_phrases): in the name, capabilities, tags or description, at that field's weight, never from
// the long description; the table follows synonyms.ts, and a reindex rewrites it from there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, type PrismaClient } from '../src/db/client.js';
import { createKysely } from '../src/db/kysely.js';
import { createPostgresSearchEngine } from '../src/search/postgres/engine.js';
import { MULTI_WORD_PHRASES } from '../src/search/text/synonyms.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

describe('search_phrases', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  const phrases = async () => (await prisma.$queryRaw<Array<{ phrase: string }>>`SELECT phrase FROM search_phrases ORDER BY phrase`).map((r) => r.phrase);
  // The phrase lexemes of an agent's document, with their weights ('voice to text':1A → voice to text A).
  const phraseLexemes = async (id: string) => {
    const [{ doc }] = await prisma.$queryRaw<[{ doc: string }]>`SELECT search_vector::text AS doc FROM agent_search WHERE id = ${id}`;
    return [...doc.matchAll(/'([a-z]+(?: [a-z]+)+)':\d+([A-D])?/g)].map((m) => `${m[1]} ${m[2] ?? 'D'}`).sort();
  };
  const agent = (id: string, data: { name: string; description?: string; longDescription?: string; capabilities?: string[] }) =>
    prisma.agent.create({ data: { id, ownerId: 'usr_ph', slug: id, endpoint: `https://${id}.example.com`, ...data } });

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = createPrismaClient(db.url, 2);
    await prisma.user.create({ data: { id: 'usr_ph', email: 'ph@example.com' } });
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.close();
  });

  it('holds exactly the phrases of several words of synonyms.ts (a change there needs a migration or a reindex)', async () => {
    expect(await phrases()).toEqual([...MULTI_WORD_PHRASES].sort());
  });

  it('adds the phrases a field has, at its weight, and none from the long description', async () => {
    await agent('agt_ph1', {
      name: 'Help Desk Hero',
      capabilities: ['speech-to-text'],
      description: 'Reads your report aloud.',
      longDescription: 'Also does customer support and voice to text.',
    });
    expect(await phraseLexemes('agt_ph1')).toEqual(['help desk A', 'speech to text B']);
    // Words apart or out of order are not the phrase.
    await agent('agt_ph2', { name: 'Desk Helper', description: 'Text and voice, read with care aloud.' });
    expect(await phraseLexemes('agt_ph2')).toEqual([]);
  });

  it('follows text changes through the update trigger', async () => {
    await prisma.agent.update({ where: { id: 'agt_ph2' }, data: { description: 'Speech synthesis for podcasts.' } });
    expect(await phraseLexemes('agt_ph2')).toEqual(['speech synthesis C']);
  });

  it('is rewritten from synonyms.ts by a reindex, which rebuilds the documents with it', async () => {
    await prisma.$executeRaw`DELETE FROM search_phrases WHERE phrase = 'help desk'`;
    await prisma.$executeRaw`INSERT INTO search_phrases (phrase, query) VALUES ('desk helper', phraseto_tsquery('english', 'desk helper'))`;
    const sql = createKysely(db.url, 1);
    await createPostgresSearchEngine(sql)
      .reindex()
      .finally(() => sql.destroy());
    expect(await phrases()).toEqual([...MULTI_WORD_PHRASES].sort());
    expect(await phraseLexemes('agt_ph1')).toEqual(['help desk A', 'speech to text B']);
    expect(await phraseLexemes('agt_ph2')).toEqual(['speech synthesis C']);
  });
});
