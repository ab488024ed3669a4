// What the payment rules share: the context every one of them takes first, and the shapes they hand out.
import type { Deps } from '../../deps.js';
import type { SqlTx } from '../../db/kysely.js';
import type { AfterCommit } from '../../db/transaction.js';
import type { Payment, Task, User } from '../../generated/prisma/client.js';
import type { TerminalStatus } from '../../lifecycle/task-lifecycle.js';
import type { PaymentProvider } from '../../payments/index.js';

// How a task ended: one of the lifecycle's terminal states. Only completed takes the money (a refunded
// dispute gives it back like any other end).
export type TaskOutcome = TerminalStatus;

export interface PaymentPlan {
  method: 'free' | 'credit' | 'card';
  // true when the task may be delivered right away (free, or paid by a credit).
  ready: boolean;
  // The card payment just made, for placing its hold after the commit without reading it back.
  payment?: Payment;
}

// What the inline hold needs, known to the request that made the task: its new payment and the requester
// as authenticated (customer and default card), so neither is read again.
export interface KnownHold {
  payment: Payment;
  requester: User;
}

// The task's row as a transaction locked it (lockTask).
export type LockedTask = Pick<Task, 'status' | 'agentId' | 'startedAt'>;

export interface CardAuthorization {
  autoCharged: boolean;
  clientSecret: string | null;
}

export interface PaymentHooks {
  // In the transaction that moved the payment pending → authorized: the task may now be delivered.
  onAuthorized(tx: SqlTx, taskId: string, afterCommit: AfterCommit, locked: LockedTask | null): Promise<void>;
  // After the transaction that recorded a declined card (payment pending → released, failureMessage set):
  // the task cannot go ahead. Runs once per task.
  onDeclined?(taskId: string, message: string): Promise<void>;
}

// The first argument of every payment rule: the service's dependencies, the processor it talks to, and
// what the task service does when a hold stands or a card is declined.
export interface PaymentContext {
  deps: Deps;
  provider: PaymentProvider;
  hooks: PaymentHooks;
}
