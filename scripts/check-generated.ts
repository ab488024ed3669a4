// npm run check:generated
// Fails when a committed generated file differs from what the generators produce now: schema.graphql
// (printed from the Pothos schema) and src/generated/gql (GraphQL Code Generator over that schema and
// the documents in the code). Nothing in the work tree is written.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { generate } from '@graphql-codegen/cli';
import codegenConfig from '../codegen.js';
import { renderSchema } from './print-schema.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const stale: Array<{ file: string; why: string; fix: string }> = [];

async function committed(file: string): Promise<string | null> {
  try {
    return await readFile(path.join(root, file), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

const schemaText = renderSchema();
const schemaOnDisk = await committed('schema.graphql');
if (schemaOnDisk !== schemaText) {
  stale.push({ file: 'schema.graphql', why: schemaOnDisk === null ? 'missing' : 'differs from src/schema', fix: 'npm run generate:schema' });
}

// Codegen reads the freshly printed schema, not the committed one, so a stale schema.graphql does not
// hide (or cause) a difference in the typed documents.
const scratch = await mkdtemp(path.join(tmpdir(), 'check-generated-'));
try {
  const schemaFile = path.join(scratch, 'schema.graphql');
  await writeFile(schemaFile, schemaText);
  const outputs = await generate({ ...codegenConfig, schema: schemaFile, cwd: root, silent: true, verbose: false }, false);
  const fix = 'npm run generate:codegen';
  const produced = new Set<string>();
  for (const output of outputs) {
    const file = path.relative(root, path.resolve(root, output.filename));
    produced.add(file);
    const onDisk = await committed(file);
    if (onDisk !== output.content) stale.push({ file, why: onDisk === null ? 'missing' : 'differs from the generator output', fix });
  }
  // A file the generator no longer writes would linger in the output folder and still be imported.
  for (const dir of Object.keys(codegenConfig.generates).filter((target) => target.endsWith('/'))) {
    const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const file = path.relative(root, path.join(entry.parentPath, entry.name));
      if (!produced.has(file)) stale.push({ file, why: 'is no longer generated', fix: `delete it, then ${fix}` });
    }
  }
  // The Kysely types: the generator runs on a copy of the schema that writes into the scratch folder.
  const kyselyFile = 'src/generated/kysely/types.ts';
  const schema = await readFile(path.join(root, 'prisma/schema.prisma'), 'utf8');
  const kyselyOut = path.join(scratch, 'kysely');
  const scratchSchema = path.join(scratch, 'schema.prisma');
  await writeFile(scratchSchema, schema.replace('output          = "../src/generated/kysely"', `output          = ${JSON.stringify(kyselyOut)}`));
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/prisma-generate.ts', 'kysely', '--schema', scratchSchema], { cwd: root, stdio: 'ignore' });
  const kyselyText = await readFile(path.join(kyselyOut, 'types.ts'), 'utf8');
  const kyselyOnDisk = await committed(kyselyFile);
  if (kyselyOnDisk !== kyselyText) stale.push({ file: kyselyFile, why: kyselyOnDisk === null ? 'missing' : 'differs from prisma/schema.prisma', fix: 'npm run generate:kysely' });
} finally {
  await rm(scratch, { recursive: true, force: true });
}

if (stale.length) {
  console.error('generated files are out of date:');
  for (const { file, why, fix } of stale) console.error(`  ${file} ${why}; run: ${fix}`);
  process.exit(1);
}
console.log('generated files are current: schema.graphql, src/generated/gql, web/src/generated/gql, src/generated/kysely');
