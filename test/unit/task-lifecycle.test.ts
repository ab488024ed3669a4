// The lifecycle is stated once (src/lifecycle/task-lifecycle.ts); every other statement of the states is
// derived from it. These checks fail when a derived list drifts from the source; the type-level ones
// (expectTypeOf, checked by `npm run typecheck`) fail to compile when a state is added to one side only.
import { readFileSync } from 'node:fs';
import type { GraphQLEnumType } from 'graphql';
import { TaskState } from '@a2a-js/sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ACTOR_KINDS,
  HAS_RESULT,
  MOVES,
  NON_TERMINAL,
  STATES,
  TASK_STATUSES,
  TERMINAL,
  WITH_AGENT,
  WORKING,
  DELIVERY_WAITS_FOR,
  FAILED,
  RECORD_OUTCOME,
  SUCCEEDED,
  canMove,
  deliveryWaitsFor,
  isTerminal,
  outcomeOf,
  type FinishingMove,
  mayMove,
  type MoveName,
  type TaskStatus,
  type TerminalStatus,
} from '../../src/lifecycle/task-lifecycle.js';
import { transition } from '../../src/services/task-states.js';
import type { SqlDb } from '../../src/db/kysely.js';
import type { TaskStatus as SchemaTaskStatus } from '../../src/generated/prisma/client.js';
import type { TaskOutcome } from '../../src/services/payments/index.js';
import { A2A_STATES, OUR_STATUS, stateOf } from '../../src/a2a/mapping.js';
import { schema } from '../../src/schema/index.js';
import * as dashboardLifecycle from '../../web/src/lifecycle.js';
import { FINISHED, OWNER_WORKS, PROGRESS_STEPS, SHOWS_RESULT, STEP_OF } from '../../web/src/task-status-sets.js';

const moveNames = Object.keys(MOVES) as MoveName[];

describe('the lifecycle, stated once', () => {
  it('has each state exactly once, and splits them into terminal and under way', () => {
    expect(new Set(TASK_STATUSES).size).toBe(TASK_STATUSES.length);
    expect([...TERMINAL, ...NON_TERMINAL].sort()).toEqual([...TASK_STATUSES].sort());
    expect(TERMINAL).toEqual(['completed', 'failed', 'cancelled', 'expired', 'refunded']);
    expect(WORKING).toEqual(['matched', 'in_progress']);
    expect(WITH_AGENT).toEqual(['matched', 'in_progress', 'input_required']);
    for (const status of TASK_STATUSES) expect(isTerminal(status)).toBe(TERMINAL.includes(status));
  });

  it('lets no move leave a terminal state, and reaches every state from pending', () => {
    for (const name of moveNames) for (const from of MOVES[name].from) expect(isTerminal(from), `${name} leaves ${from}`).toBe(false);
    const reached = new Set<TaskStatus>(['pending']);
    for (let grew = true; grew; ) {
      grew = false;
      for (const name of moveNames) {
        const move = MOVES[name];
        if (move.from.some((s) => reached.has(s)) && !reached.has(move.to)) {
          reached.add(move.to);
          grew = true;
        }
      }
    }
    expect([...reached].sort()).toEqual([...TASK_STATUSES].sort());
  });

  it('names who may make each move, and transition refuses anyone else as a programming error', async () => {
    for (const name of moveNames) {
      expect(MOVES[name].by.length, name).toBeGreaterThan(0);
      for (const kind of MOVES[name].by) expect(ACTOR_KINDS).toContain(kind);
    }
    // Only the requester answers an input request, only an operator settles a dispute, only the service matches.
    expect(mayMove('provide_input', 'requester')).toBe(true);
    expect(mayMove('provide_input', 'agent')).toBe(false);
    expect(mayMove('resolve_pay', 'agent_owner')).toBe(false);
    expect(mayMove('match', 'requester')).toBe(false);
    // The actor is checked before the database is touched: no transaction is needed to see the refusal.
    const noTx = undefined as unknown as SqlDb;
    const now = new Date(0);
    await expect(transition(noTx, 'task_x', 'approve', { now, by: { kind: 'agent' } })).rejects.toThrow('the lifecycle does not let agent make the move approve');
    // No `by` is the service itself: it may not reject a result for the requester, but it may expire a task.
    await expect(transition(noTx, 'task_x', 'reject', { now })).rejects.toThrow('the lifecycle does not let system make the move reject');
    await expect(transition(noTx, 'task_x', 'expire', { now })).rejects.not.toThrow(/the lifecycle does not let/);
  });
});

describe('what is derived from it', () => {
  it('the GraphQL enum TaskStatus has exactly the lifecycle states', () => {
    const values = (schema.getType('TaskStatus') as GraphQLEnumType).getValues().map((v) => v.value as string);
    expect(values.sort()).toEqual([...TASK_STATUSES].sort());
  });

  it('schema.prisma lists the same states', () => {
    const prisma = readFileSync(new URL('../../prisma/schema.prisma', import.meta.url), 'utf8');
    const body = /enum TaskStatus \{([^}]*)\}/.exec(prisma)![1]!;
    const values = body
      .split('\n')
      .map((line) => line.replace(/\/\/.*/, '').trim())
      .filter(Boolean);
    expect(values).toEqual(TASK_STATUSES);
  });

  it('the A2A mapping has exactly the lifecycle states, and its filter maps back to the state it stands for', () => {
    expect(Object.keys(A2A_STATES).sort()).toEqual([...TASK_STATUSES].sort());
    for (const status of TASK_STATUSES) expect(Object.values(TaskState)).toContain(stateOf(status));
    for (const [a2a, ours] of Object.entries(OUR_STATUS)) expect(stateOf(ours)).toBe(Number(a2a));
    // A finished task is a finished A2A task, and the other way round.
    const a2aTerminal = new Set<TaskState>([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED]);
    for (const status of TASK_STATUSES) expect(a2aTerminal.has(stateOf(status)), status).toBe(isTerminal(status));
  });

  it('the expiry job expires exactly what the expire move leaves', () => {
    expect(TASK_STATUSES.filter((s) => canMove('expire', s))).toEqual(['pending', 'matched', 'in_progress']);
  });

  it('the dashboard imports the same module and builds its sets from it', () => {
    expect(dashboardLifecycle.MOVES).toBe(MOVES);
    expect(dashboardLifecycle.TASK_STATUSES).toBe(TASK_STATUSES);
    expect([...FINISHED]).toEqual(TERMINAL);
    expect([...SHOWS_RESULT]).toEqual(HAS_RESULT);
    expect([...OWNER_WORKS]).toEqual(WORKING);
    expect(Object.keys(STEP_OF).sort()).toEqual([...NON_TERMINAL].sort());
    for (const [status] of PROGRESS_STEPS) expect(NON_TERMINAL).toContain(status);
    expect(Object.keys(STATES)).toEqual(TASK_STATUSES);
  });

  it('the lifecycle module imports nothing, so the dashboard bundle can take it', () => {
    const source = readFileSync(new URL('../../src/lifecycle/task-lifecycle.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^\s*(import|export .* from)\b/m);
  });

  it('types: the states are the schema’s, payments’ outcomes are the terminal states, the A2A table covers every state', () => {
    expectTypeOf<TaskStatus>().toEqualTypeOf<SchemaTaskStatus>();
    expectTypeOf<TaskOutcome>().toEqualTypeOf<TerminalStatus>();
    expectTypeOf<TerminalStatus>().toEqualTypeOf<'completed' | 'failed' | 'cancelled' | 'expired' | 'refunded'>();
    expectTypeOf<keyof typeof A2A_STATES>().toEqualTypeOf<TaskStatus>();
  });

  it('a finishing move ends in its own target; the moves that end a task are the ones whose target is terminal', () => {
    const finishing = (Object.keys(MOVES) as MoveName[]).filter((m) => isTerminal(MOVES[m].to));
    for (const move of finishing) expect(outcomeOf(move as FinishingMove)).toBe(MOVES[move].to);
    expectTypeOf<FinishingMove>().toEqualTypeOf<
      'complete' | 'approve' | 'refund' | 'resolve_refund' | 'resolve_pay' | 'fail' | 'cancel' | 'input_timeout' | 'expire' | 'undeliverable' | 'unpaid'
    >();
  });

  it('a delivery waits for the state its move leaves: the task for the delivered move, an input answer for work again', () => {
    expect(DELIVERY_WAITS_FOR).toEqual({ 'task.assigned': 'matched', 'task.input': 'in_progress' });
    expect(canMove('delivered', deliveryWaitsFor('task.assigned'))).toBe(true);
    expect(deliveryWaitsFor('task.input')).toBe(MOVES.provide_input.to);
    expect(deliveryWaitsFor('a2a.get')).toBe('matched');
  });

  it('every terminal state says something, or deliberately nothing, about its agent', () => {
    expect(Object.keys(RECORD_OUTCOME).sort()).toEqual([...TERMINAL].sort());
    expect(SUCCEEDED).toEqual(['completed']);
    expect([...FAILED].sort()).toEqual(['expired', 'failed', 'refunded']);
  });
});
