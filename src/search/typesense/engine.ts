// The Typesense search engine. The collection is reached through an alias (TYPESENSE_COLLECTION), so a
// reindex builds a fresh collection beside the live one and switches the alias when it is complete.
// Agent changes arrive through search.sync jobs, which retry while Typesense is unreachable.
import type { Client } from 'typesense';
import { packageLoader } from '../../load-package.js';
import type { SqlDb } from '../../db/kysely.js';
import { agentById, agentsAfter } from '../../stores/agent-store.js';
import type { Logger } from '../../logger.js';
import type { SearchEngine } from '../engine.js';
import { agentDocument, collectionSchema, type AgentDocument } from './collection.js';
import { typesenseSearchParams } from './params.js';
import { synonymSet, synonymSetName } from './synonyms.js';

const IMPORT_BATCH = 1000;

export interface TypesenseSettings {
  url: string;
  apiKey: string;
  // The alias searches go through.
  collection: string;
}

const loadTypesense = packageLoader<typeof import('typesense')>('typesense');

export function createTypesenseClient(settings: TypesenseSettings): Client {
  return new (loadTypesense().Client)({
    nodes: [{ url: settings.url.replace(/\/$/, '') }],
    apiKey: settings.apiKey,
    connectionTimeoutSeconds: 5,
    // Retries belong to the job queue, which keeps them across restarts.
    numRetries: 1,
    logLevel: 'silent',
  });
}

const isNotFound = (error: unknown) => error instanceof loadTypesense().Errors.ObjectNotFound;

export function createTypesenseSearchEngine(deps: { sql: SqlDb; logger: Logger; client: Client; alias: string }): SearchEngine {
  const { sql, client, alias, logger } = deps;
  const documents = () => client.collections<AgentDocument>(alias).documents();

  async function aliasTarget(): Promise<string | null> {
    try {
      return (await client.aliases(alias).retrieve()).collection_name;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  // A new, empty collection under a unique name, not yet behind the alias; the synonym set is written
  // (again) with it, so a changed synonym table reaches Typesense with the next reindex.
  async function createCollection(): Promise<string> {
    const name = `${alias}_${Date.now()}`;
    await client.synonymSets(synonymSetName(alias)).upsert(synonymSet());
    await client.collections().create(collectionSchema(name));
    return name;
  }

  // The first sync on an empty Typesense creates the collection and the alias.
  async function ensureCollection(): Promise<void> {
    if ((await aliasTarget()) !== null) return;
    const name = await createCollection();
    await client.aliases().upsert(alias, { collection_name: name });
    logger.info({ collection: name, alias }, 'typesense collection created');
  }

  async function writeAgent(agentId: string): Promise<void> {
    const agent = await agentById(sql, agentId);
    if (agent) {
      await documents().upsert(agentDocument(agent));
      return;
    }
    try {
      await client.collections<AgentDocument>(alias).documents(agentId).delete();
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  return {
    name: 'typesense',
    keepsIndex: true,

    async search(query) {
      const result = await documents().search(typesenseSearchParams(query, synonymSetName(alias)), {});
      return { ids: (result.hits ?? []).map((hit) => hit.document.id), total: result.found };
    },

    async syncAgent(agentId) {
      try {
        await writeAgent(agentId);
      } catch (error) {
        if (!isNotFound(error)) throw error;
        await ensureCollection();
        await writeAgent(agentId);
      }
    },

    async reindex() {
      const previous = await aliasTarget();
      const name = await createCollection();
      let indexed = 0;
      // Keyset pagination: a stable walk over the table however large it is.
      for (let after: string | undefined; ; ) {
        const batch = await agentsAfter(sql, after, IMPORT_BATCH);
        if (batch.length === 0) break;
        await client.collections<AgentDocument>(name).documents().import(batch.map(agentDocument), { action: 'upsert' });
        indexed += batch.length;
        after = batch.at(-1)!.id;
      }
      await client.aliases().upsert(alias, { collection_name: name });
      if (previous && previous !== name) await client.collections(previous).delete();
      logger.info({ collection: name, alias, indexed }, 'typesense reindexed');
      return { indexed };
    },
  };
}
