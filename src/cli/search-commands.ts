// Administration of the search index:
//   npm run --silent cli -- search reindex [--json]
// Rebuilds the configured engine's index from the database: for Typesense a new collection behind the
// alias, for PostgreSQL the weighted documents and the typo-correction vocabulary.
import type { CliCommand } from './command.js';

export const searchCommands: CliCommand[] = [
  {
    words: 'search reindex',
    usage: 'search reindex [--json]',
    options: {},
    async run(services) {
      const engine = services.discovery.engine.name;
      const { indexed } = await services.discovery.reindex();
      return { json: { engine, indexed }, text: `reindexed ${indexed} agent(s) with the ${engine} engine` };
    },
  },
];
