import type { JobDefinition } from './job.js';
import { agentChanged } from './agent-changed.js';
import { deliverTask, expireTask, routeTask } from './task-jobs.js';
import { paymentJobs } from './payment-jobs.js';
import { searchSync } from './search-sync.js';
import { healthSweep } from './health-sweep.js';
import { healthProbe } from './health-probe.js';

export const jobs: JobDefinition[] = [agentChanged, deliverTask, expireTask, routeTask, ...paymentJobs, searchSync, healthSweep, healthProbe] as unknown as JobDefinition[];
