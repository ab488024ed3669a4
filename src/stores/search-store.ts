// The search index's SQL: the weighted full-text search over agent_search (one narrow row per agent, its
// tsvector kept by triggers), the vocabulary the engine's spelling index is built from, and the rebuild of
// both. What to search for (the query plan, typo tolerance, the ranking's keys) is the engine's
// (search/postgres/); this file only runs it. Searches go through the search's own connections
// (db/kysely.ts createSearchSql).
import { sql, type Selectable } from 'kysely';
import { compiledStatement } from '../db/compiled-statement.js';
import type { Sql, SqlDb } from '../db/kysely.js';
import type { Agent, AgentSearch, AgentStatus } from '../generated/kysely/types.js';
import type { AgentRow } from './agent-store.js';
import { sortKeys, type MatchKey, type SearchSort } from './search-ranking.js';

export type { MatchKey, SearchSort, TierCase, TierTerm } from './search-ranking.js';

// Every column of agents but the A2A card, which search never shows and which is up to 256 KiB: the page's
// agents come back from the search query itself, in one round trip.
// A column added to agents and missing here fails the type check of agentOf below (AgentRow has it).
export const SEARCH_AGENT_COLUMNS = [
  'id', 'ownerId', 'name', 'slug', 'description', 'longDescription', 'endpoint', 'deliveryMode', 'protocols',
  'categories', 'capabilities', 'tags', 'docsUrl', 'manifestUrl', 'authType', 'version', 'inputSchema',
  'twitterUrl', 'status', 'verified', 'healthStatus', 'healthCheckedAt', 'trustScore', 'trustTier',
  'webhookSecretEnc', 'previousWebhookSecretEnc', 'previousWebhookSecretExpiresAt', 'signingKeyEnc',
  'signingPublicKey', 'previousSigningKeyEnc', 'previousSigningPublicKey', 'previousSigningKeyExpiresAt',
  'deliveryState', 'endpointFailStreak', 'endpointFailingSince', 'endpointDisabledAt', 'endpointPingOkAt',
  'maxConcurrentTasks', 'maxDeliveriesPerSecond', 'deliveryWindowStart', 'deliveryWindowCount',
  'successLowerBound', 'ratingBayes', 'ratingLowerBound', 'priceCents', 'taskCount', 'completedCount',
  'failedCount', 'ratingCount', 'ratingSum', 'verifiedAt', 'healthFailStreak', 'lastHealthyAt',
  'lastUnhealthyAt', 'recentFinished', 'recentSuccessRate', 'p50CompletionMs', 'p95CompletionMs',
  'cardVerified', 'cardFetchedAt', 'createdAt', 'updatedAt',
] as const satisfies ReadonlyArray<keyof Agent>;

const agentOf = (row: Pick<Selectable<Agent>, (typeof SEARCH_AGENT_COLUMNS)[number]>): AgentRow => ({ ...row, a2aCard: null });

// What every agent a search finds has: the status and every repeated value asked for (each one narrows).
export interface SearchFilters {
  status: AgentStatus;
  protocols: string[];
  categories: string[];
  capabilities: string[];
}

export interface IndexSearch extends SearchFilters {
  // The tsquery text every match has; null when the filters alone decide (browsing, or only stop words).
  where: string | null;
  // The text search's ranking keys (search-ranking.ts); null without words.
  match: MatchKey[] | null;
  sort: SearchSort;
  page: number;
  perPage: number;
}

export interface SearchPage {
  // search_vocabulary.version as this search saw it; null for an empty first page, which reads nothing
  // more (vocabularyVersion below, when the caller needs it).
  vocabularyVersion: string | null;
  // Every agent that matches, not only this page.
  total: number;
  // The page's agents in rank order, the A2A card read as null.
  agents: AgentRow[];
}

// The columns agents and agent_search share, which filters and the ranking read.
type Matchable = Pick<Selectable<AgentSearch>, 'id' | 'status' | 'protocols' | 'categories' | 'capabilities'>;

// Text searches rank on the narrow agent_search rows (the document and the columns filters and sorts use,
// under the same names); browsing without words keeps to agents and its array indexes.
// `shape`: which of the filters and the words the search has (its values may be parameters' placeholders).
function matching(db: SqlDb, search: IndexSearch, shape: Shape = shapeOf(search)) {
  return db
    .selectFrom(sql<Matchable>`${sql.table(shape.words ? 'agentSearch' : 'agents')}`.as('a'))
    .where('a.status', '=', sql<AgentStatus>`${search.status}::"AgentStatus"`)
    .$if(shape.protocols, (q) => q.where('a.protocols', '@>', sql<string[]>`${search.protocols}::text[]`))
    .$if(shape.categories, (q) => q.where('a.categories', '@>', sql<string[]>`${search.categories}::text[]`))
    .$if(shape.capabilities, (q) => q.where('a.capabilities', '@>', sql<string[]>`${search.capabilities}::text[]`))
    .$if(shape.words, (q) => q.where(sql<boolean>`a.search_vector @@ ${search.where}::tsquery`));
}

interface Shape {
  protocols: boolean;
  categories: boolean;
  capabilities: boolean;
  words: boolean;
}

const shapeOf = (search: IndexSearch): Shape => ({
  protocols: search.protocols.length > 0,
  categories: search.categories.length > 0,
  capabilities: search.capabilities.length > 0,
  words: search.where !== null,
});

// Every value of a search, in one fixed order, replaced by what `slot` makes of it: what stays is the
// search's shape, on which alone the statement's text depends.
function mapValues(search: IndexSearch, slot: <V>(value: V) => V): IndexSearch {
  const tsquery = (text: string) => slot(text);
  const match = search.match?.map((key): MatchKey => {
    switch (key.kind) {
      case 'tiers':
        return { ...key, terms: key.terms.map((t) => ({ ...t, cases: t.cases.map((c) => ({ ...c, tsquery: tsquery(c.tsquery) })) })) };
      case 'coverage':
        return { ...key, tsqueries: key.tsqueries.map(tsquery) };
      case 'relevance':
        return { ...key, any: tsquery(key.any), ...(key.telling ? { telling: key.telling.map((t) => ({ tsquery: tsquery(t.tsquery), weight: slot(t.weight) })) } : {}) };
    }
  });
  return {
    ...search,
    status: slot(search.status),
    protocols: search.protocols.length > 0 ? slot(search.protocols) : [],
    categories: search.categories.length > 0 ? slot(search.categories) : [],
    capabilities: search.capabilities.length > 0 ? slot(search.capabilities) : [],
    where: search.where === null ? null : slot(search.where),
    match: match ?? null,
  };
}

const versionRow = (db: SqlDb) =>
  db.selectFrom('searchVocabulary').select(sql<string>`version::text`.as('vocabularyVersion')).where('id', '=', sql.lit(1));

// search_vocabulary.version: moves on whenever the vocabulary gains a word.
export async function vocabularyVersion(db: SqlDb): Promise<string> {
  return (await versionRow(db).executeTakeFirst())?.vocabularyVersion ?? '0';
}

// One round trip for a page with agents: the vocabulary version, the total, and the page's agents in rank
// order. The sort keys are computed once per matching agent in an inner query that the planner keeps apart
// (OFFSET 0), so that what the window count holds and the sort orders is the id and the keys: carried
// through them, the agents' whole rows (the tsvector included) spilled to disk for broad queries and made
// them 14-26 % slower. The agents' rows are joined for the page alone. The window count rides on the
// ranking's one pass over the matches (a count of its own was a second pass). An empty page has no row to
// carry the version and the count: past the last page a second statement reads them; an empty first page
// has no match to count, and its version is read only if the caller needs it (vocabularyVersion).
function pageStatement(db: SqlDb, search: IndexSearch, shape: Shape, limit: number, offset: number) {
  const keys = sortKeys(search.sort, search.match);
  const keyed = matching(db, search, shape)
    .select((eb) => [eb.ref('a.id').as('id'), ...keys.map((k, i) => k.value.as(`k${i}`))])
    .offset(sql.lit(0));
  return db
    .selectFrom(versionRow(db).as('v'))
    .crossJoinLateral((eb) =>
      eb
        .selectFrom(
          eb
            .selectFrom(keyed.as('m'))
            .select(['m.id', sql<string>`count(*) OVER ()`.as('total')])
            .$call((q) => keys.reduce((ordered, k, i) => ordered.orderBy(sql`${sql.ref(`m.k${i}`)} ${k.direction}`), q))
            .orderBy('m.id')
            .limit(limit)
            .offset(offset)
            .as('ranked'),
        )
        .select([sql<string[] | null>`array_agg(ranked.id)`.as('ids'), sql<string | null>`max(ranked.total)`.as('total')])
        .as('p'),
    )
    .crossJoinLateral(sql<{ id: string; position: string }>`unnest(p.ids) WITH ORDINALITY`.as<'r'>(sql`r(id, position)`))
    .innerJoin('agents as a', 'a.id', 'r.id')
    .select(['v.vocabularyVersion', 'p.total'])
    .select(SEARCH_AGENT_COLUMNS.map((column) => `a.${column}` as const))
    .orderBy('r.position');
}

// Building and compiling the page's statement (some sixty columns, the CamelCase plugin's copy of the
// tree) cost more than the search itself on a warm database: each shape is compiled once
// (db/compiled-statement.ts), up to a bound like that of the named statements (db/statement-names.ts).
const MAX_SHAPES = 1000;
const compiledPages = new Map<string, ReturnType<typeof compilePage>>();

function compilePage(search: IndexSearch) {
  const shape = shapeOf(search);
  return compiledStatement((db, param) => {
    let slot = 0;
    const template = mapValues(search, () => param(`v${slot++}`));
    return pageStatement(db, template, shape, param<number>('limit'), param<number>('offset'));
  });
}

function pageOf(search: IndexSearch) {
  const key = JSON.stringify({ ...mapValues(search, () => 0 as never), page: 0, perPage: 0 });
  let page = compiledPages.get(key);
  if (!page) {
    page = compilePage(search);
    if (compiledPages.size < MAX_SHAPES) compiledPages.set(key, page);
  }
  return page;
}

export async function searchAgents(db: SqlDb, search: IndexSearch): Promise<SearchPage> {
  const offset = (search.page - 1) * search.perPage;
  const values: Record<string, unknown> = { limit: search.perPage, offset };
  let slot = 0;
  mapValues(search, (value) => {
    values[`v${slot++}`] = value;
    return value;
  });
  const { rows } = await pageOf(search).run(db, values);
  if (rows.length > 0) return { vocabularyVersion: rows[0]!.vocabularyVersion, total: Number(rows[0]!.total ?? 0), agents: rows.map(({ vocabularyVersion: _, total: __, ...agent }) => agentOf(agent)) };
  if (offset === 0) return { vocabularyVersion: null, total: 0, agents: [] };
  const past = await db
    .selectFrom(versionRow(db).as('v'))
    .select(['v.vocabularyVersion', () => matching(db, search).select(sql<string>`count(*)`.as('total')).as('total')])
    .executeTakeFirst();
  return { vocabularyVersion: past?.vocabularyVersion ?? '0', total: Number(past?.total ?? 0), agents: [] };
}

// The vocabulary the engine's spelling index is built from (search/postgres/correction-index.ts).
export interface VocabularySnapshot {
  // search_vocabulary.version of the words.
  version: string;
  // Each word of the agents' texts with its lexemes in the 'english' configuration (none: a stop word).
  words: Array<{ word: string; lexemes: string[] }>;
  // How many active agents' documents hold each lexeme.
  documentFrequency: Map<string, number>;
  // Active agents.
  documents: number;
}

export async function readVocabulary(db: SqlDb): Promise<VocabularySnapshot> {
  // One statement, so that the version and the words come from the same snapshot.
  const rows = await db
    .selectFrom('searchVocabulary as v')
    .leftJoin('searchWords as w', (join) => join.onTrue())
    .select([
      sql<string>`v.version::text`.as('version'),
      'w.word',
      sql<string[] | null>`tsvector_to_array(to_tsvector('english'::regconfig, w.word))`.as('lexemes'),
    ])
    .where('v.id', '=', 1)
    .execute();
  // ts_stat's columns are fixed: the lexeme and the number of documents that hold it.
  const stats = await db
    .selectFrom(sql<{ word: string; ndoc: number }>`ts_stat('SELECT search_vector FROM agent_search WHERE status = ''active''')`.as('s'))
    .select(['s.word', 's.ndoc'])
    .execute();
  const { documents } = await db
    .selectFrom('agentSearch')
    .select(sql<number>`count(*)::int`.as('documents'))
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow();
  return {
    version: rows[0]?.version ?? '0',
    words: rows.flatMap(({ word, lexemes }) => (word === null ? [] : [{ word, lexemes: lexemes ?? [] }])),
    documentFrequency: new Map(stats.map((s) => [s.word, s.ndoc])),
    documents,
  };
}

// How long each of the rebuild's statements may run: they go over every agent, past the server's usual
// limit (db/kysely.ts SERVER_TIMEOUT_MS) on a large registry.
const REINDEX_TIMEOUT = '600s';

// Rebuilds the search index from the agents in one transaction: the phrases as given (search/text/
// synonyms.ts's multi-word ones) before the documents that hold them, every agent's document, and the
// vocabulary (words of deleted agents go), whose version moves on so that every process rebuilds its
// spelling index. Returns how many documents were rebuilt.
export async function rebuildSearchIndex(db: Sql, phrases: readonly string[]): Promise<number> {
  return db.transaction().execute(async (tx) => {
    await sql`SET LOCAL statement_timeout = ${sql.lit(REINDEX_TIMEOUT)}`.execute(tx);
    await tx.deleteFrom('searchPhrases').execute();
    await sql`
      INSERT INTO search_phrases (phrase, query)
      SELECT p, phraseto_tsquery('english'::regconfig, p) FROM unnest(${[...phrases]}::text[]) AS p`.execute(tx);
    const indexed = await sql`
      UPDATE agent_search s SET search_vector = agent_search_document(a.name, a.capabilities, a.tags, a.description, a.long_description)
      FROM agents a WHERE a.id = s.id`.execute(tx);
    await tx.deleteFrom('searchWords').execute();
    await sql`
      INSERT INTO search_words (word)
      SELECT DISTINCT w FROM agents a, agent_search_words(a.name, a.capabilities, a.tags, a.description, a.long_description) AS w
      ORDER BY w
      ON CONFLICT DO NOTHING`.execute(tx);
    await tx.updateTable('searchVocabulary').set((eb) => ({ version: sql<string>`${eb.ref('version')} + 1` })).where('id', '=', 1).execute();
    return Number(indexed.numAffectedRows ?? 0);
  });
}
