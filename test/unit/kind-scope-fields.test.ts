// The Task type carries no scopes of its own (schema/kind-scopes.ts readsTasks): every field whose type is
// a task states the rule instead, or asks for tasks:read or tasks:write itself, so no path reaches a task's
// fields without one of them (test/scope-reach.test.ts holds the refusals over the wire).
import { getNamedType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { readsTasks } from '../../src/schema/kind-scopes.js';
import { schema } from '../../src/schema/index.js';

const OWN_SCOPES = [{ scope: 'tasks:read' }, { scope: 'tasks:write' }];

describe('the fields that answer a task', () => {
  const fields = Object.values(schema.getTypeMap())
    .filter(isObjectType)
    .flatMap((type) => Object.values(type.getFields()).map((field) => ({ name: `${type.name}.${field.name}`, field })))
    .filter(({ field }) => getNamedType(field.type).name === 'Task');

  it('are found (the Delivery, the page, the create and the root fields)', () => {
    expect(fields.map((f) => f.name)).toEqual(expect.arrayContaining(['Delivery.task', 'TaskPage.data', 'CreateTaskResult.task', 'Query.task', 'Mutation.startTask', 'Subscription.taskUpdated']));
  });

  it('each states the tasks rule or a tasks scope of its own', () => {
    const without = fields.filter(({ field }) => {
      const scopes = (field.extensions?.pothosOptions as { authScopes?: unknown } | undefined)?.authScopes;
      return scopes !== readsTasks && !OWN_SCOPES.some((own) => JSON.stringify(own) === JSON.stringify(scopes));
    });
    expect(without.map((f) => f.name)).toEqual([]);
  });

  it('the rule: a signed-in caller with tasks:read or tasks:write; otherwise a refusal naming tasks:read', () => {
    const ctx = (scopes: string[], viewer: object | null = { id: 'usr_1' }) => ({ viewer, scopes }) as never;
    expect(readsTasks(null, {}, ctx(['tasks:read']))).toBe(true);
    expect(readsTasks(null, {}, ctx(['tasks:write']))).toBe(true);
    expect(readsTasks(null, {}, ctx(['agents:read']))).toEqual({ scope: 'tasks:read' });
    expect(readsTasks(null, {}, ctx(['tasks:read'], null))).toEqual({ scope: 'tasks:read' });
  });
});
