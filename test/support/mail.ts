import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A message written by services/shared/mailer.ts in file mode, decoded for assertions. */
export interface SentMail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

function decodeQuotedPrintable(s: string): string {
  const bytes = s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeHeader(v: string): string {
  return v.replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, data: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' '))).replace(/\?=\s+=\?/g, '');
}

/** Every .eml in the mail directory, oldest first. */
export function readMails(dir: string): SentMail[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.eml')).sort().map((file) => parseMail(readFileSync(join(dir, file), 'utf8'), file));
}

/** One RFC 5322 message (an .eml file, or what an SMTP server received) decoded for assertions. */
export function parseMail(source: string, file = ''): SentMail {
  const raw = source.replace(/\r\n/g, '\n');
  const sep = raw.indexOf('\n\n');
  const head = raw.slice(0, sep).replace(/\n[ \t]+/g, ' ');
  const body = raw.slice(sep + 2);
  const header = (name: string) => decodeHeader(new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1] ?? '');
  const qp = /content-transfer-encoding: quoted-printable/i.test(head);
  const b64 = /content-transfer-encoding: base64/i.test(head);
  const text = qp ? decodeQuotedPrintable(body) : b64 ? Buffer.from(body, 'base64').toString('utf8') : body;
  return { file, to: header('To'), subject: header('Subject'), text };
}

/** Mails to one address, oldest first. */
export function mailsTo(dir: string, to: string): SentMail[] {
  return readMails(dir).filter((m) => m.to.toLowerCase().includes(to.toLowerCase()));
}

/** The `token=` value of the newest mail to `to` (invites and reset links). */
export function lastTokenSentTo(dir: string, to: string): string {
  const mails = mailsTo(dir, to);
  const m = mails.length ? /token=([A-Za-z0-9_-]+)/.exec(mails[mails.length - 1]!.text) : null;
  if (!m) throw new Error(`no token mailed to ${to}`);
  return m[1]!;
}

/**
 * The `token=` value of the `nth` mail (1-based) to `to`, waiting for it to be written: mails that
 * must not delay the answer (forgot-password) are sent after the response.
 */
export async function tokenMailedTo(dir: string, to: string, nth = 1, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = mailsTo(dir, to);
    if (mails.length >= nth) {
      const m = /token=([A-Za-z0-9_-]+)/.exec(mails[nth - 1]!.text);
      if (!m) throw new Error(`mail ${nth} to ${to} has no token`);
      return m[1]!;
    }
    if (Date.now() > deadline) throw new Error(`no mail ${nth} to ${to} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
