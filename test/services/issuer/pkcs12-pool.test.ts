import test from 'ava';
import { Pkcs12Pool } from '../../../services/issuer/pkcs12-pool.js';
import { createA1, createCa } from '../../support/certificates.js';
import { withMacIterations } from '../../support/pkcs12-patch.js';
import { MAX_PKCS12_ITERATIONS } from '../../../lib/issuer/pkcs12-iterations.js';

const ca = createCa();
const CNPJ = '11222333000181';
const a1 = createA1(ca, { cnpj: CNPJ });
const pfx = Buffer.from(a1.pfxBase64, 'base64');

async function refusal(p: Promise<unknown>) {
  try { await p; } catch (err: any) { return { name: err.name, type: err.type, code: err.code, message: err.message, data: err.data }; }
  throw new Error('did not throw');
}

test('Pkcs12Pool opens and accepts an A1 in a worker thread, with the catalogued refusals of the lib', async (t) => {
  const pool = new Pkcs12Pool({ timeoutMs: 60_000 });
  t.teardown(() => pool.destroy());
  const read = await pool.read(pfx, a1.password);
  t.is(read.cnpj, CNPJ);
  t.regex(read.keyPem, /BEGIN RSA PRIVATE KEY/);
  t.is((await pool.accept(pfx, a1.password, CNPJ, new Date(), 'p1')).fingerprint, read.fingerprint);
  t.deepEqual(await refusal(pool.read(pfx, 'errada')), { name: 'DomainError', type: 'CERTIFICADO_SENHA_INVALIDA', code: 422, message: 'Senha do certificado incorreta.', data: undefined });
  t.like(await refusal(pool.accept(pfx, a1.password, '11444777000161', new Date(), 'p1')), { type: 'CERTIFICADO_CNPJ_DIVERGENTE', code: 422, data: { cnpjCertificado: CNPJ, cnpjEmissor: '11444777000161' } });
});

test('Pkcs12Pool refuses a file over the iteration bound without a thread, and stops a job past its time limit while the event loop runs', async (t) => {
  // A limit far below what the bound costs: forge's 100 000 MAC iterations take from ~0.1 s on an
  // idle core to over a second on a loaded one, so only a limit under the fastest case is certain.
  const pool = new Pkcs12Pool({ timeoutMs: 10 });
  t.teardown(() => pool.destroy());
  const over = await refusal(pool.read(withMacIterations(pfx, MAX_PKCS12_ITERATIONS + 1), 'errada'));
  t.like(over, { type: 'CERTIFICADO_INVALIDO', code: 422, data: { iteracoesMaximas: MAX_PKCS12_ITERATIONS } });

  await pool.read(pfx, a1.password).catch(() => undefined); // the threads have loaded (their start is not timed)
  let ticks = 0;
  const timer = setInterval(() => { ticks++; }, 2);
  const started = Date.now();
  const slow = await refusal(pool.read(withMacIterations(pfx, MAX_PKCS12_ITERATIONS), 'errada'));
  clearInterval(timer);
  t.deepEqual(slow, {
    name: 'DomainError', type: 'CERTIFICADO_INVALIDO', code: 422, data: { tempoMaximoMs: 10 },
    message: 'Processamento do certificado excedeu 10 ms (contagem de iterações do PKCS#12 acima do usual?).',
  });
  t.true(Date.now() - started < 5_000);
  t.true(ticks >= 1, `the event loop ran meanwhile (${ticks} ticks)`);
});

test('Pkcs12Pool: waiting for a thread does not count against the time limit; past the queue bound it is 503 at once', async (t) => {
  const pool = new Pkcs12Pool({ timeoutMs: 3_000, maxThreads: 1, maxQueue: 40 });
  t.teardown(() => pool.destroy());
  await pool.read(pfx, a1.password); // the thread is up
  const started = Date.now();
  const burst = await Promise.all(Array.from({ length: 30 }, () => pool.read(pfx, a1.password)));
  t.true(burst.every((c) => c.cnpj === CNPJ));
  t.log(`30 reads on one thread in ${Date.now() - started} ms, each under its own 3 s limit`);

  const small = new Pkcs12Pool({ timeoutMs: 60_000, maxThreads: 1, maxQueue: 1 });
  t.teardown(() => small.destroy());
  const running = small.read(pfx, a1.password);
  await new Promise((r) => setImmediate(r));
  const queued = small.read(pfx, a1.password);
  t.deepEqual(await refusal(small.read(pfx, a1.password)), {
    name: 'DomainError', type: 'SERVICE_UNAVAILABLE', code: 503, message: 'Processamento de certificados ocupado neste momento; tente novamente.', data: undefined,
  });
  t.is((await running).cnpj, CNPJ);
  t.is((await queued).cnpj, CNPJ);
});

test('Pkcs12Pool: a read for signing goes before waiting uploads, and uploads take turns by partner', async (t) => {
  const pool = new Pkcs12Pool({ timeoutMs: 60_000, maxThreads: 1 });
  t.teardown(() => pool.destroy());
  await pool.read(pfx, a1.password); // the thread is up
  const done: string[] = [];
  const track = (name: string, p: Promise<unknown>) => p.then(() => done.push(name));
  // One partner's burst of six uploads is already waiting when another partner uploads and an emission needs a read.
  const burst = Array.from({ length: 6 }, (_, i) => track(`flood${i}`, pool.accept(pfx, a1.password, CNPJ, new Date(), 'flooding')));
  const other = track('other', pool.accept(pfx, a1.password, CNPJ, new Date(), 'other'));
  const read = track('read', pool.read(pfx, a1.password));
  await Promise.all([...burst, other, read]);
  // flood0 held the thread; the read is next, then the other partner's turn, then the rest of the burst.
  t.deepEqual(done, ['flood0', 'read', 'flood1', 'other', 'flood2', 'flood3', 'flood4', 'flood5']);
});

test('Pkcs12Pool: past maxQueuePerPartner a partner\'s upload is 503 at once while another partner\'s still queues', async (t) => {
  const pool = new Pkcs12Pool({ timeoutMs: 60_000, maxThreads: 1, maxQueuePerPartner: 2 });
  t.teardown(() => pool.destroy());
  await pool.read(pfx, a1.password);
  const upload = (owner: string) => pool.accept(pfx, a1.password, CNPJ, new Date(), owner);
  const accepted = [upload('flooding'), upload('flooding'), upload('flooding')]; // one running, two waiting
  t.deepEqual(await refusal(upload('flooding')), {
    name: 'DomainError', type: 'SERVICE_UNAVAILABLE', code: 503, message: 'Processamento de certificados ocupado neste momento; tente novamente.', data: undefined,
  });
  t.is((await upload('other')).cnpj, CNPJ);
  t.true((await Promise.all(accepted)).every((c) => c.cnpj === CNPJ));
});
