// Delivers one operational event to its owner's notificationUrl (one attempt; the notification records
// its attempts and queues its own retry).
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const deliverNotification = defineJob({
  name: 'notification.deliver',
  payload: z.object({ notificationId: z.string() }),
  subject: (p) => p.notificationId,
});
