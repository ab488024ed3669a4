// The moves between a requester and an agent beyond "do it": the agent asks for more input, the requester
// reviews a result before paying, and a rejected result becomes a dispute that the agent's owner refunds
// or contests and an operator settles. Every wait has a durable job for when nobody answers, and none
// outlives a card hold (payments/hold-life.ts), so a payment is always captured or released once.
//
// The rules are plain functions of a TrustContext in this folder's modules (input, result, review, disputes);
// this facade binds them to one context, so the task service says `trust.approve(viewer, id)`.
import { contest, disputeTimedOut, listDisputes, refund, resolveDispute } from './disputes.js';
import { askForInputAsAgent, inputTimedOut, provideInput, requestInput } from './input.js';
import { resultAnswered, resultGiven } from './result.js';
import { approve, autoApprove, reject } from './review.js';
import type { TrustContext } from './context.js';

export { MAX_INPUT_ROUNDS } from './input.js';
export type { FinishOptions, TaskInternals, TrustContext } from './context.js';

export function taskTrust(ctx: TrustContext) {
  const bound = <A extends unknown[], R>(rule: (ctx: TrustContext, ...args: A) => R) => (...args: A): R => rule(ctx, ...args);
  return {
    resultGiven: bound(resultGiven),
    resultAnswered: bound(resultAnswered),
    askForInputAsAgent: bound(askForInputAsAgent),
    requestInput: bound(requestInput),
    provideInput: bound(provideInput),
    inputTimedOut: bound(inputTimedOut),
    approve: bound(approve),
    autoApprove: bound(autoApprove),
    reject: bound(reject),
    refund: bound(refund),
    contest: bound(contest),
    disputeTimedOut: bound(disputeTimedOut),
    listDisputes: bound(listDisputes),
    resolveDispute: bound(resolveDispute),
  };
}

export type TaskTrust = ReturnType<typeof taskTrust>;
