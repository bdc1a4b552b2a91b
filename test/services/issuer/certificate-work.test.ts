import test from 'ava';
import { startStack, type Stack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { createA1, createCa } from '../../support/certificates.js';
import { withKeyBagIterations, withMacIterations } from '../../support/pkcs12-patch.js';
import { aCompleteIssuer, as } from './support.js';

/**
 * Issue 23, defect 1: a PKCS#12 declaring a huge MAC or PBE iteration count froze the node that
 * runs `issuer` (19.7 s for a 3.5 KB file with the MAC count patched to 8,388,607, another
 * partner's request stalled meanwhile). The bound refuses it before any derivation; the work
 * itself runs in a worker thread.
 */
let stack: Stack;
const ca = createCa();

test.before(async () => {
  stack = await startStack({ nodes: [{ services: ['api-gateway', 'issuer'], extra: [FakeAuthService] }] });
  // Steady state: the certificate threads have started (a node starts them on first use).
  const issuer = await newIssuer('p-warm');
  const a1 = createA1(ca, { cnpj: issuer.cnpj, password: 'senha-do-a1' });
  const warm = await stack.request('POST', `/v1/companies/${issuer.issuerId}/certificate`, { headers: as('p-warm'), body: { pfxBase64: a1.pfxBase64, password: 'senha-do-a1' } });
  if (warm.status !== 201) throw new Error(warm.text);
});
test.after.always(async () => { await stack?.stop(); });

async function newIssuer(partner: string) {
  const res = await stack.request('POST', '/v1/companies', { headers: as(partner), body: aCompleteIssuer() });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.data as { issuerId: string; cnpj: string };
}

async function timed<T>(p: Promise<T>): Promise<{ res: T; ms: number }> {
  const started = performance.now();
  const res = await p;
  return { res, ms: performance.now() - started };
}

const DETAIL = 'PKCS#12 com contagem de iterações (MAC/PBE) acima de 100000: gere o arquivo novamente com uma contagem usual (por exemplo, 2048).';

for (const [name, patch, password] of [
  ['MAC count patched to 8,388,607, wrong password', (pfx: Buffer) => withMacIterations(pfx, 8_388_607), 'senha-errada'],
  ['key bag count of 0x7FFFFFFF, right password', (pfx: Buffer) => withKeyBagIterations(pfx, 0x7fffffff), 'senha-do-a1'],
] as const) {
  test.serial(`an A1 with a ${name} is refused in < 100 ms while another partner's request on the node answers in < 100 ms`, async (t) => {
    const hostile = await newIssuer('p-hostile');
    const other = await newIssuer('p-other');
    const a1 = createA1(ca, { cnpj: hostile.cnpj, password: 'senha-do-a1' });
    const pfxBase64 = patch(Buffer.from(a1.pfxBase64, 'base64')).toString('base64');
    const path = `/v1/companies/${hostile.issuerId}/certificate`;
    await stack.request('GET', `/v1/companies/${other.issuerId}`, { headers: as('p-other') }); // warm route
    const [upload, concurrent] = await Promise.all([
      timed(stack.request('POST', path, { headers: as('p-hostile'), body: { pfxBase64, password } })),
      new Promise((r) => setTimeout(r, 5)).then(() => timed(stack.request('GET', `/v1/companies/${other.issuerId}`, { headers: as('p-other') }))),
    ]);
    t.is(upload.res.status, 422, upload.res.text);
    t.deepEqual(upload.res.body, {
      error: {
        type: 'https://errors.test/CERTIFICADO_INVALIDO', title: 'Unprocessable Entity', status: 422, detail: DETAIL,
        details: { iteracoesMaximas: 100000 }, instance: path, requestId: upload.res.headers.get('x-request-id'), timestamp: upload.res.body.error.timestamp,
      },
    });
    t.true(upload.ms < 100, `refused in ${upload.ms.toFixed(1)} ms`);
    t.is(concurrent.res.status, 200);
    t.true(concurrent.ms < 100, `other partner answered in ${concurrent.ms.toFixed(1)} ms`);
    const row = await stack.knex('issuer.issuers').where({ id: hostile.issuerId }).first('cert_pfx');
    t.is(row.cert_pfx, null, 'nothing stored');
  });
}

test.serial('a usual A1 is still accepted (opened in a worker thread)', async (t) => {
  const issuer = await newIssuer('p-ok');
  const a1 = createA1(ca, { cnpj: issuer.cnpj, password: 'senha-do-a1' });
  const res = await stack.request('POST', `/v1/companies/${issuer.issuerId}/certificate`, { headers: as('p-ok'), body: { pfxBase64: a1.pfxBase64, password: 'senha-do-a1' } });
  t.is(res.status, 201, res.text);
  t.is(res.body.data.certificado.cnpj, issuer.cnpj);
});
