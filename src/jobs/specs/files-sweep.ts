// The hourly sweep of files (services/files/): unfinished uploads, blobs no row knows, and files of
// tasks finished more than FILE_RETENTION_DAYS ago. It reschedules itself under its one key.
import { z } from 'zod';
import { defineJob, JobPriority } from '../spec.js';

export const sweepFiles = defineJob({
  name: 'files.sweep',
  payload: z.object({}),
  priority: JobPriority.background,
  maxAttempts: 3,
});
