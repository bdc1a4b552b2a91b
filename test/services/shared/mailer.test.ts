import test from 'ava';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMailer } from '../../../services/shared/mailer.js';
import { readMails, lastTokenSentTo } from '../../support/mail.js';

test('createMailer without SMTP_URL writes one readable .eml per message into the mail directory', async (t) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'mail-')), 'nested');
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const mailer = createMailer({ smtpUrl: null, dir, from: 'API <no-reply@test>', platformOwner: 'owner@test' });
  const long = 'x'.repeat(120);
  await mailer.send({ to: 'ana@example.com', subject: 'Redefinição de senha', text: `Olá Ana, ação necessária:\nhttps://api.test/redefinir?token=${long}-_Zz9\n` });
  await mailer.send({ to: 'bob@example.com', subject: 'Outro', text: 'b' });
  t.is(readdirSync(dir).filter((f) => f.endsWith('.eml')).length, 2);
  const [first] = readMails(dir).filter((m) => m.to.includes('ana@'));
  t.is(first!.subject, 'Redefinição de senha');
  t.true(first!.text.startsWith('Olá Ana, ação necessária:'), JSON.stringify(first!.text.slice(0, 60)));
  t.is(lastTokenSentTo(dir, 'ana@example.com'), `${long}-_Zz9`);
});
