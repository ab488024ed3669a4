// One administration command (cli.ts runs them): its words, usage line, options and what it does.
import type { Services } from '../services/index.js';

export interface CliCommand {
  words: string;
  usage: string;
  // Options without which the command cannot run; checked before the database is opened.
  required?: string[];
  // The option a bare word after the command fills (`agent verify agt_…`).
  positional?: string;
  options: Record<string, { type: 'string' | 'boolean' }>;
  run(services: Services, values: Record<string, string | boolean | undefined>): Promise<{ json: unknown; text: string }>;
}
