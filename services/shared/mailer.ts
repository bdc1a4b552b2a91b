import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { AppConfig } from '../../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Outgoing e-mail for every service (nodemailer). With SMTP_URL it is sent over SMTP; otherwise
 * each message is written as an `.eml` file under config.mail.dir (var/mail by default) so a
 * developer and the tests can read invites and reset links. File names sort by time of writing.
 */
let sequence = 0;

export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

export function createMailer(mail: AppConfig['mail'], now: () => Date = () => new Date()): Mailer {
  if (mail.smtpUrl) {
    // A request that mails (invite, password reset) waits for the send: bound it, instead of
    // nodemailer's defaults (2 min to connect, 10 min of socket silence). Query parameters of
    // SMTP_URL still override these.
    // (SMTPTransport itself merges `url` with the other options; createTransport({ url }) would drop them.)
    const transport = nodemailer.createTransport(new SMTPTransport({ url: mail.smtpUrl, ...SMTP_TIMEOUTS }));
    return {
      async send(m) {
        await transport.sendMail({ from: mail.from, to: m.to, subject: m.subject, text: m.text });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(m) {
      const info = await transport.sendMail({ from: mail.from, to: m.to, subject: m.subject, text: m.text, textEncoding: 'quoted-printable' });
      mkdirSync(mail.dir, { recursive: true });
      // A sequence number keeps the order of messages written within the same clock instant.
      const name = `${now().toISOString().replace(/[:.]/g, '-')}-${String(++sequence).padStart(8, '0')}-${randomBytes(4).toString('hex')}.eml`;
      writeFileSync(join(mail.dir, name), info.message as Buffer, { mode: 0o600 });
    },
  };
}
