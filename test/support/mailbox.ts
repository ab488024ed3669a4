// A real SMTP server (smtp-server) on loopback that keeps what the service mails: start it, give the
// service SMTP_URL = mailbox.url, and read the messages each address was sent.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { until } from './wait.js';

export interface Mail {
  to: string;
  // The message body as the reader sees it (quoted-printable undone).
  text: string;
}

export interface Mailbox {
  url: string;
  // How many messages `address` has been sent so far.
  countTo(address: string): number;
  // The `nth` message (from 1) to `address`, waited for if it has not arrived yet.
  mailTo(address: string, nth?: number): Promise<Mail>;
  close(): Promise<void>;
}

// Quoted-printable folds long lines with a trailing `=` and escapes `=` and other bytes as =XX.
function bodyOf(raw: string): string {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (!/content-transfer-encoding:\s*quoted-printable/i.test(head)) return body;
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export async function startMailbox(): Promise<Mailbox> {
  const mails: Mail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const text = bodyOf(Buffer.concat(chunks).toString('utf8'));
        for (const rcpt of session.envelope.rcptTo) mails.push({ to: rcpt.address, text });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const to = (address: string) => mails.filter((m) => m.to === address);
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    countTo: (address) => to(address).length,
    mailTo: (address, nth = 1) => until(`mail number ${nth} to ${address}`, () => to(address)[nth - 1]),
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
