import test, { type ExecutionContext } from 'ava';
import { createServer, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createMailer, SMTP_TIMEOUTS } from '../../../services/shared/mailer.js';
import { parseMail, type SentMail } from '../../support/mail.js';
import { authStack } from '../auth/helpers.js';
import { loginAs } from '../../support/identity.js';

interface Received extends SentMail { envelopeFrom: string; envelopeTo: string[]; user: string | undefined }

/** A real SMTP server on a free loopback port that requires AUTH and keeps what it receives. */
async function smtpServer(t: ExecutionContext, credentials = { user: 'mailer', pass: 's3nh@ SMTP' }): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, done) {
      if (auth.username === credentials.user && auth.password === credentials.pass) done(null, { user: auth.username });
      else done(new Error('Invalid username or password'));
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          ...parseMail(Buffer.concat(chunks).toString('utf8')),
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.server.address() as { port: number };
  return { url: `smtp://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@127.0.0.1:${port}`, received };
}

async function until(done: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A loopback port with nothing listening (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

test('with SMTP_URL the mailer authenticates and delivers one UTF-8 message over SMTP', async (t) => {
  const smtp = await smtpServer(t);
  const mailer = createMailer({ smtpUrl: smtp.url, dir: '/nonexistent', from: 'Fiscal API <no-reply@fiscal.test>', platformOwner: 'owner@test' });
  await mailer.send({ to: 'ana@example.com', subject: 'Redefinição de senha', text: 'Olá Ana, ação necessária:\nhttps://api.test/redefinir?token=abc-_Z9\n' });
  t.is(smtp.received.length, 1);
  const [mail] = smtp.received;
  t.like(mail, { envelopeFrom: 'no-reply@fiscal.test', envelopeTo: ['ana@example.com'], user: 'mailer', to: 'ana@example.com', subject: 'Redefinição de senha' });
  t.is(mail!.text.replace(/\r?\n$/, ''), 'Olá Ana, ação necessária:\nhttps://api.test/redefinir?token=abc-_Z9');
});

test('wrong SMTP credentials or an unreachable server make send() reject (the caller decides), never hang', async (t) => {
  const smtp = await smtpServer(t);
  const wrong = createMailer({ smtpUrl: smtp.url.replace('mailer:', 'outro:'), dir: '/nonexistent', from: 'x@fiscal.test', platformOwner: 'o@test' });
  await t.throwsAsync(wrong.send({ to: 'a@example.com', subject: 's', text: 't' }), { message: /Invalid login|Invalid username/i });
  const down = createMailer({ smtpUrl: `smtp://127.0.0.1:${await closedPort()}`, dir: '/nonexistent', from: 'x@fiscal.test', platformOwner: 'o@test' });
  await t.throwsAsync(down.send({ to: 'a@example.com', subject: 's', text: 't' }), { message: /ECONNREFUSED/ });
  t.is(smtp.received.length, 0);
});

test('over HTTP with SMTP_URL: forgot-password mails the reset token by SMTP and the token resets the password', async (t) => {
  const smtp = await smtpServer(t);
  const stack = await authStack(t, { env: { SMTP_URL: smtp.url, MAIL_FROM: 'Fiscal API <no-reply@fiscal.test>' } });
  const user = await loginAs(stack);
  const forgot = await stack.request('POST', '/v1/auth/forgot-password', { body: { email: user.email } });
  t.is(forgot.status, 202, forgot.text);
  await until(() => smtp.received.length === 1);
  const mail = smtp.received[0]!;
  t.like(mail, { envelopeTo: [user.email], subject: 'Redefinição de senha', user: 'mailer' });
  const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  t.truthy(token, mail.text);
  const reset = await stack.request('POST', '/v1/auth/reset-password', { body: { token, newPassword: 'Nova-senha-456' } });
  t.is(reset.status, 200, reset.text);
  t.deepEqual(reset.body.data, { message: 'Senha redefinida. Entre com a nova senha.' });
  const login = await stack.request('POST', '/v1/auth/login', { body: { email: user.email, password: 'Nova-senha-456' } });
  t.is(login.status, 201, login.text);
});

test('over HTTP with an unreachable SMTP server: forgot-password still answers the same 202 (the failure is only logged)', async (t) => {
  const stack = await authStack(t, { env: { SMTP_URL: `smtp://mailer:segredo@127.0.0.1:${await closedPort()}` } });
  const user = await loginAs(stack);
  const known = await stack.request('POST', '/v1/auth/forgot-password', { body: { email: user.email } });
  const unknown = await stack.request('POST', '/v1/auth/forgot-password', { body: { email: 'ninguem@example.com' } });
  t.is(known.status, 202, known.text);
  t.deepEqual(known.body.data, unknown.body.data);
});

/** An SMTP port that accepts connections and never greets; `closed` counts the ones the client gave up. */
async function silentServer(t: ExecutionContext): Promise<{ port: number; held: Socket[]; closed: () => number }> {
  const held: Socket[] = [];
  let closed = 0;
  const server = createServer((socket) => {
    held.push(socket);
    socket.resume();
    socket.on('close', () => { closed += 1; });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => { for (const s of held) s.destroy(); server.close(); });
  return { port: (server.address() as { port: number }).port, held, closed: () => closed };
}

test('a server that never greets makes send() give up after the 10 s greeting timeout, not nodemailer\'s 30 s', async (t) => {
  const silent = await silentServer(t);
  const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${silent.port}`, dir: '/nonexistent', from: 'x@fiscal.test', platformOwner: 'o@test' });
  const started = Date.now();
  await t.throwsAsync(mailer.send({ to: 'a@example.com', subject: 's', text: 't' }), { message: /Greeting never received/ });
  const waited = Date.now() - started;
  t.true(waited >= SMTP_TIMEOUTS.greetingTimeout - 100 && waited < 20_000, `gave up after ${waited} ms`);
});

test('forgot-password answers before the SMTP exchange: a server that has not even greeted cannot delay it or reveal the address', async (t) => {
  const silent = await silentServer(t);
  const stack = await authStack(t, { env: { SMTP_URL: `smtp://127.0.0.1:${silent.port}` } });
  const user = await loginAs(stack);
  const known = await stack.request('POST', '/v1/auth/forgot-password', { body: { email: user.email } });
  t.is(known.status, 202, known.text);
  // Awaited, the send would end only at the greeting timeout, with the client closing its socket.
  await until(() => silent.held.length === 1);
  t.is(silent.closed(), 0, 'the mail is still waiting for the greeting after the answer came');
  const unknown = await stack.request('POST', '/v1/auth/forgot-password', { body: { email: 'ninguem@example.com' } });
  t.deepEqual(known.body.data, unknown.body.data);
});
