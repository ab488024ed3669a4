// Jobs that talk to the payment processor. Each sends the key task:<id>:<step>, so running one twice
// (jobs run at least once) repeats the same processor call and never charges twice.
import { z } from 'zod';
import { defineJob } from './job.js';

const byTask = z.object({ taskId: z.string().min(1) });

// The safety net for a hold the creating request did not place (the process died, or the processor was down).
export const authorizePayment = defineJob({
  name: 'payment.authorize',
  payload: byTask,
  run: (services, { taskId }) => services.payments.authorizeFromJob(taskId),
});

// Captures a completed task's hold, then queues the owner's transfer.
export const capturePayment = defineJob({
  name: 'payment.capture',
  payload: byTask,
  run: (services, { taskId }) => services.payments.capture(taskId),
});

// Cancels the PaymentIntent of a task that did not complete. intentId names a hold that was placed after
// the task had already ended (and so was never recorded as the task's hold).
export const releasePayment = defineJob({
  name: 'payment.release',
  payload: byTask.extend({ intentId: z.string().min(1).optional() }),
  run: (services, { taskId, intentId }) => services.payments.release(taskId, intentId),
});

export const transferPayment = defineJob({
  name: 'payment.transfer',
  payload: byTask,
  run: (services, { taskId }) => services.payments.transfer(taskId),
});

// Refunds a credit purchase that could not be credited: its agent was deleted while the card was charged.
export const refundPurchase = defineJob({
  name: 'payment.refund_purchase',
  payload: z.object({ intentId: z.string().min(1) }),
  run: (services, { intentId }) => services.credits.refundPurchase(intentId),
});

export const paymentJobs = [authorizePayment, capturePayment, releasePayment, transferPayment, refundPurchase];
