// Mails one sign-in link (services/accounts/email-links.ts); the link's row holds its encrypted token.
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const mailSignInLink = defineJob({
  name: 'email.sign-in-link',
  payload: z.object({ emailLinkId: z.string() }),
  subject: (p) => p.emailLinkId,
  maxAttempts: 5,
});
