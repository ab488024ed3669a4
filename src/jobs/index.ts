import type { JobDefinition } from './job.js';
import { agentChanged } from './agent-changed.js';

export const jobs: JobDefinition[] = [agentChanged as unknown as JobDefinition];
