// Jobs of the task lifecycle. Each is safe to run more than once.
import { z } from 'zod';
import { defineJob, JobPriority } from './job.js';

export const deliverTask = defineJob({
  name: 'task.deliver',
  payload: z.object({ deliveryId: z.string() }),
  run: (services, { deliveryId }, helpers) => services.deliveries.attempt(deliveryId, helpers.job.id),
});

export const expireTask = defineJob({
  name: 'task.expire',
  payload: z.object({ taskId: z.string() }),
  priority: JobPriority.first,
  run: (services, { taskId }) => services.tasks.expire(taskId),
});

export const routeTask = defineJob({
  name: 'task.route',
  payload: z.object({ taskId: z.string() }),
  run: (services, { taskId }) => services.tasks.routeWaiting(taskId),
});
