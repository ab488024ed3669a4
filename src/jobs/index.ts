import type { JobDefinition } from './job.js';
import { agentChanged } from './agent-changed.js';
import { deliverTask, expireTask, routeTask } from './task-jobs.js';
import { paymentJobs } from './payment-jobs.js';

export const jobs: JobDefinition[] = [agentChanged, deliverTask, expireTask, routeTask, ...paymentJobs] as unknown as JobDefinition[];
