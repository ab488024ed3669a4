// Heap kept after checking 2 000 task inputs against one agent's inputSchema: compiling on every check
// with one shared Ajv (as before) against the compile cache. Run: node --expose-gc --import tsx bench/input-schema-memory.ts
import { Ajv } from 'ajv';
import { inputSchemaCompileCount, inputSchemaProblem } from '../src/services/input-schema.js';

const CHECKS = 2000;
const schema = JSON.stringify({
  type: 'object',
  required: ['text'],
  properties: { text: { type: 'string', maxLength: 5000, pattern: '^[^<>]*$' }, lang: { enum: ['en', 'fr', 'de'] }, n: { type: 'integer' } },
});
const input = { text: 'Good morning', lang: 'fr', n: 1 };

function heapAfter(run: () => void): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  const before = process.memoryUsage().heapUsed;
  run();
  gc();
  return process.memoryUsage().heapUsed - before;
}

const shared = new Ajv({ strict: false });
const baseline = heapAfter(() => {
  for (let i = 0; i < CHECKS; i++) shared.compile(JSON.parse(schema) as object)(input);
});
const compilesBefore = inputSchemaCompileCount();
const cached = heapAfter(() => {
  for (let i = 0; i < CHECKS; i++) inputSchemaProblem(schema, input);
});
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
console.log(`${CHECKS} checks: compile each time ${mb(baseline)} MB kept; cached ${mb(cached)} MB kept, ${inputSchemaCompileCount() - compilesBefore} compile`);
console.log(`ratio cached / compile each time: ${(cached / baseline).toFixed(3)}`);
