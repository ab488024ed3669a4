// Static bounds on an owner's JSON Schema, checked before Ajv compiles it. Validation work grows with
// the schema as it is evaluated, references followed: two `anyOf` branches that both point at the same
// definition, stacked twenty levels deep, made a 2 KB schema take 25 s on a one-field input. So
// references must be local JSON pointers, may not be recursive, and the schema with every reference
// expanded must stay under a node budget.

export const MAX_INPUT_SCHEMA_DEPTH = 32;
export const MAX_EXPANDED_SCHEMA_NODES = 2000;
// Ajv nests one generated block per branch: 1 200 anyOf branches took 3.8 s to compile, 2 200 overflowed.
export const MAX_BRANCHES = 50;
// Ajv compares array items pairwise for uniqueItems unless they have a scalar type (20 000 objects: 16 s).
export const MAX_UNIQUE_ITEMS = 500;

export class InputSchemaError extends Error {}

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

function checkUniqueItems(node: Record<string, unknown>): void {
  const items = node.items as { type?: unknown } | undefined;
  const types = items && typeof items === 'object' ? [items.type].flat() : [];
  const scalar = types.length > 0 && types.every((t) => typeof t === 'string' && SCALAR_TYPES.has(t));
  const bounded = typeof node.maxItems === 'number' && node.maxItems <= MAX_UNIQUE_ITEMS;
  if (!scalar && !bounded) {
    throw new InputSchemaError(`uniqueItems needs items of a scalar type, or maxItems of at most ${MAX_UNIQUE_ITEMS}`);
  }
}

// Walks the parsed schema without recursion (the depth bound is what this checks).
function checkShape(schema: unknown): void {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: schema, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_INPUT_SCHEMA_DEPTH) throw new InputSchemaError(`the schema is nested more than ${MAX_INPUT_SCHEMA_DEPTH} levels deep`);
    if (!Array.isArray(value) && (value as Record<string, unknown>).uniqueItems === true) checkUniqueItems(value as Record<string, unknown>);
    for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
      const branches = (value as Record<string, unknown>)[keyword];
      if (Array.isArray(branches) && branches.length > MAX_BRANCHES) throw new InputSchemaError(`${keyword} may have at most ${MAX_BRANCHES} entries`);
    }
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child !== '#' && !child.startsWith('#/')) {
        throw new InputSchemaError(`$ref ${JSON.stringify(child.slice(0, 100))} is not a local JSON pointer; only references inside the schema (#/…) are allowed`);
      }
      stack.push({ value: child, depth: depth + 1 });
    }
  }
}

function resolvePointer(root: unknown, ref: string): unknown {
  let node = root;
  for (const raw of ref.slice(2).split('/').filter((_, i, all) => !(all.length === 1 && all[0] === ''))) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) {
      throw new InputSchemaError(`$ref ${JSON.stringify(ref.slice(0, 100))} points at nothing in the schema`);
    }
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

// Counts the nodes of the schema with each $ref replaced by its target, remembering what each shared
// node expands to; a reference back into its own expansion is a cycle.
function checkExpandedSize(root: unknown): number {
  const sizes = new Map<object, number>();
  const expanding = new Set<object>();
  const size = (node: unknown): number => {
    if (node === null || typeof node !== 'object') return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (expanding.has(node)) throw new InputSchemaError('the schema refers to itself ($ref cycle); recursive schemas are not allowed');
    expanding.add(node);
    let total = 1;
    for (const [key, child] of Object.entries(node)) {
      total += key === '$ref' && typeof child === 'string' ? size(resolvePointer(root, child === '#' ? '#/' : child)) : size(child);
      if (total > MAX_EXPANDED_SCHEMA_NODES) {
        throw new InputSchemaError(`the schema is too large once its references are expanded (over ${MAX_EXPANDED_SCHEMA_NODES} nodes)`);
      }
    }
    expanding.delete(node);
    sizes.set(node, total);
    return total;
  };
  return size(root);
}

/**
 * Throws InputSchemaError when the parsed schema is too deep, refers outside itself, or expands too far;
 * else returns its size with references expanded (the cost of checking one input value against it).
 */
export function checkInputSchemaBounds(schema: unknown): number {
  checkShape(schema);
  return checkExpandedSize(schema);
}
