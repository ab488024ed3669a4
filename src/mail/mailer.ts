// The port the service's mail (sign-in links) goes out through, and its adapter: SMTP_URL with
// nodemailer. Without SMTP_URL there is no mailer: development prints links in the log instead,
// production offers passkeys only.
import type { Transporter } from 'nodemailer';
import { lazyImport } from '../load-package.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

// nodemailer (about 10 MB resident) is loaded with the first mail, not at start.
const loadNodemailer = lazyImport(() => import('nodemailer'));

export function createMailer(smtpUrl: string | null, from: string): Mailer | null {
  if (!smtpUrl) return null;
  let transport: Transporter | undefined;
  return {
    async send(mail) {
      const nodemailer = (await loadNodemailer()).default;
      transport ??= nodemailer.createTransport(smtpUrl);
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
