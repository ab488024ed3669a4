// npm run check:db-access [-- --report]
// Fails when code outside the stores (src/stores/), the database's own plumbing (src/db/) and the Pothos
// Prisma plugin's reads (src/schema/) reaches the database: a Prisma model call, `$transaction`,
// `$queryRaw`/`$executeRaw`, a `pg` `.query(`, the Kysely builder or a Kysely `sql` fragment. In src/schema/
// only Prisma model reads are allowed (the plugin's relation loading), nothing that writes.
//
// There are no exceptions: a statement outside those places is moved into its aggregate's store.
// `--report` prints the counts per style and per file.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const OWN_PLACES = ['src/stores/', 'src/db/', 'src/generated/'];
const POTHOS_READS = 'src/schema/';

async function prismaDelegates(): Promise<string[]> {
  const schema = await readFile(path.join(root, 'prisma/schema.prisma'), 'utf8');
  // Prisma's client names a model's delegate by lowering its first letter (`OAuthToken` -> `oAuthToken`).
  return [...schema.matchAll(/^model\s+(\w+)/gm)].map(([, name]) => name![0]!.toLowerCase() + name!.slice(1));
}

const PRISMA_READS = ['findUnique', 'findUniqueOrThrow', 'findFirst', 'findFirstOrThrow', 'findMany', 'count', 'aggregate', 'groupBy'];
const PRISMA_WRITES = ['create', 'createMany', 'createManyAndReturn', 'update', 'updateMany', 'updateManyAndReturn', 'upsert', 'delete', 'deleteMany'];

type Style = { name: string; pattern: RegExp; inSchema: boolean };

function styles(delegates: string[]): Style[] {
  const models = delegates.join('|');
  return [
    { name: 'prisma model read', pattern: new RegExp(`\\.(?:${models})\\.(?:${PRISMA_READS.join('|')})\\(`, 'g'), inSchema: true },
    { name: 'prisma model write', pattern: new RegExp(`\\.(?:${models})\\.(?:${PRISMA_WRITES.join('|')})\\(`, 'g'), inSchema: false },
    { name: 'prisma $transaction', pattern: /\$transaction\b/g, inSchema: false },
    { name: 'prisma $queryRaw', pattern: /\$queryRaw(?:Unsafe)?\b/g, inSchema: false },
    { name: 'prisma $executeRaw', pattern: /\$executeRaw(?:Unsafe)?\b/g, inSchema: false },
    { name: 'pg .query', pattern: /\.query\(/g, inSchema: false },
    { name: 'kysely builder', pattern: /\.(?:selectFrom|selectNoFrom|insertInto|updateTable|deleteFrom|mergeInto|replaceInto)\(/g, inSchema: false },
    { name: 'kysely sql', pattern: /\bsql(?:<[^`]*?>)?`|\bsql\.(?:raw|ref|id|lit|join|table|val)\(/g, inSchema: false },
  ];
}

// Comments may name what they describe ("no $transaction here"); only code counts.
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ' '))
    .split('\n')
    .map((line) => line.replace(/(^|[^:'"`])\/\/.*$/, '$1'))
    .join('\n');
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

const report = process.argv.includes('--report');
const all = styles(await prismaDelegates());
const hits = new Map<string, Map<string, number>>();
for (const file of await sourceFiles('src')) {
  if (OWN_PLACES.some((place) => file.startsWith(place))) continue;
  const text = code(await readFile(path.join(root, file), 'utf8'));
  const inSchema = file.startsWith(POTHOS_READS);
  for (const style of all) {
    if (inSchema && style.inSchema) continue;
    const count = [...text.matchAll(style.pattern)].length;
    if (count === 0) continue;
    const perFile = hits.get(file) ?? new Map<string, number>();
    perFile.set(style.name, count);
    hits.set(file, perFile);
  }
}

if (report) {
  for (const style of all) {
    const files = [...hits].filter(([, perFile]) => perFile.has(style.name));
    const total = files.reduce((sum, [, perFile]) => sum + perFile.get(style.name)!, 0);
    console.log(`${style.name}: ${total} in ${files.length} files`);
    for (const [file, perFile] of files.sort((a, b) => b[1].get(style.name)! - a[1].get(style.name)!)) {
      console.log(`  ${String(perFile.get(style.name)).padStart(3)} ${file}`);
    }
  }
  console.log(`files outside the stores that reach the database: ${hits.size}`);
}

const problems: string[] = [];
for (const [file, perFile] of hits) {
  const what = [...perFile].map(([style, n]) => `${n} ${style}`).join(', ');
  problems.push(`${file} reaches the database (${what}): move the statements into a store in src/stores/`);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`check:db-access: nothing outside src/stores/, src/db/ and the Pothos reads in src/schema/ reaches the database`);
