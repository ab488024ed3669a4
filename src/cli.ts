// Administration commands. They work on the server's database: the DATABASE_URL server, or the embedded
// database of a running server (through its socket), or the embedded directory itself when no server holds it.
//   npm run --silent cli -- user create --email E [--name N] [--admin] --json
//   npm run --silent cli -- apikey create --user ID [--name N] --json
//   npm run --silent cli -- apikey list --user ID [--json]
//   npm run --silent cli -- apikey revoke --key KEY_ID
import { parseArgs } from 'node:util';
import type { CliCommand } from './cli/command.js';
import { AppError } from './errors.js';
import { commands as extraCommands } from './cli/commands.js';

type OptionValues = Parameters<CliCommand['run']>[1];

// An option the command lists as `required`: main() has refused the command already when it is missing.
function given(v: OptionValues, name: string): string {
  const value = v[name];
  if (typeof value !== 'string') throw new AppError('INVALID_INPUT', `--${name} is required`, { field: name });
  return value;
}

const baseCommands: CliCommand[] = [
  {
    words: 'user create',
    usage: 'user create --email E [--name N] [--admin] [--json]',
    options: { email: { type: 'string' }, name: { type: 'string' }, admin: { type: 'boolean' } },
    required: ['email'],
    async run(services, v) {
      const { user, apiKey } = await services.accounts.createUser({ email: given(v, 'email'), name: v.name as string | undefined, isAdmin: v.admin === true });
      return { json: { id: user.id, apiKey }, text: `created user ${user.id} (${user.email})\nAPI key (shown once): ${apiKey}` };
    },
  },
  {
    words: 'apikey create',
    usage: 'apikey create --user ID [--name N] [--json]',
    options: { user: { type: 'string' }, name: { type: 'string' } },
    required: ['user'],
    async run(services, v) {
      const { apiKey, record } = await services.accounts.createApiKey(given(v, 'user'), (v.name as string | undefined) ?? null);
      return { json: { apiKey }, text: `created key ${record.id}\nAPI key (shown once): ${apiKey}` };
    },
  },
  {
    words: 'apikey list',
    usage: 'apikey list --user ID [--json]',
    options: { user: { type: 'string' } },
    required: ['user'],
    // Ids, names and prefixes only: the keys themselves are not stored (only their hashes).
    async run(services, v) {
      const userId = given(v, 'user');
      const found = await services.accounts.listApiKeys(userId).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'NOT_FOUND') throw new AppError('NOT_FOUND', `no user ${userId}`);
        throw error;
      });
      const keys = found.map((k) => ({
        id: k.id,
        name: k.name,
        prefix: k.prefix,
        createdAt: k.createdAt,
        lastUsedAt: k.lastUsedAt,
        revokedAt: k.revokedAt,
      }));
      const text = keys
        .map((k) => `${k.id}  ${k.prefix}…  ${k.name ?? '-'}  created ${k.createdAt.toISOString()}  ${k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : k.lastUsedAt ? `last used ${k.lastUsedAt.toISOString()}` : 'never used'}`)
        .join('\n');
      return { json: keys, text: text || 'no keys' };
    },
  },
  {
    words: 'apikey revoke',
    usage: 'apikey revoke --key KEY_ID_OR_KEY [--json]',
    options: { key: { type: 'string' } },
    required: ['key'],
    async run(services, v) {
      const key = await services.accounts.revokeApiKey(null, given(v, 'key'));
      return { json: { id: key.id, revokedAt: key.revokedAt }, text: `revoked key ${key.id}` };
    },
  },
];

const allCommands = [...baseCommands, ...extraCommands];

function usage(): string {
  return 'usage: npm run --silent cli -- <command>\n' + allCommands.map((c) => `  ${c.usage}`).join('\n');
}

const wantsHelp = (argv: string[]) => argv.includes('--help') || argv.includes('-h');

async function main(argv: string[]): Promise<number> {
  const command = allCommands.find((c) => argv.slice(0, c.words.split(' ').length).join(' ') === c.words);
  if (!command) {
    if (argv.length === 0 || argv[0] === 'help' || wantsHelp(argv)) {
      // Asked for: the list goes to standard output and it is not an error. Nothing asked: an error.
      (argv.length === 0 ? process.stderr : process.stdout).write(usage() + '\n');
      return argv.length === 0 ? 2 : 0;
    }
    const known = allCommands.some((c) => c.words.split(' ')[0] === argv[0]);
    process.stderr.write(`unknown command: ${argv.filter((a) => !a.startsWith('-')).slice(0, known ? 2 : 1).join(' ')}\n${usage()}\n`);
    return 2;
  }
  if (wantsHelp(argv)) {
    process.stdout.write(`usage: npm run --silent cli -- ${command.usage}\n`);
    return 0;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    const parsed = parseArgs({
      args: argv.slice(command.words.split(' ').length),
      options: { ...command.options, json: { type: 'boolean' } },
      allowPositionals: command.positional !== undefined,
    }) as { values: Record<string, string | boolean | undefined>; positionals: string[] };
    values = parsed.values;
    const [first, ...rest] = parsed.positionals;
    if (rest.length) throw new Error(`unexpected argument: ${rest[0]}`);
    if (first !== undefined && command.positional) values[command.positional] ??= first;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nusage: ${command.usage}\n`);
    return 2;
  }
  const missing = (command.required ?? []).filter((name) => typeof values[name] !== 'string' || values[name] === '');
  if (missing.length) {
    const message = `${missing.map((m) => `--${m}`).join(', ')} is required`;
    process.stderr.write(values.json ? JSON.stringify({ error: { code: 'INVALID_INPUT', message } }) + '\n' : `${message}\nusage: ${command.usage}\n`);
    return 2;
  }
  // The service's modules load only now: a usage error answers without them.
  const { runCommand } = await import('./cli/run.js');
  return runCommand(command, values);
}

process.exitCode = await main(process.argv.slice(2));
