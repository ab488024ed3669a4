// schema.graphql is committed so that clients and codegen can read the API without running the server;
// it must be what src/schema prints. (npm run check:generated also covers src/generated/gql.)
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { renderSchema } from '../scripts/print-schema.js';

it('schema.graphql is current with src/schema (fix: npm run generate:schema)', async () => {
  const committed = await readFile(new URL('../schema.graphql', import.meta.url), 'utf8');
  expect(committed).toBe(renderSchema());
});
