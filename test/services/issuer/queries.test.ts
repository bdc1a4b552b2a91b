import test from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { withCnpjCheckDigits, withCpfCheckDigits } from '../../../lib/issuer/documents.js';
import { charSum } from '../../../services/issuer/lookup-simulator.js';
import { as } from './support.js';

const H = as('pq');

/** First valid CNPJ/CPF from `start` whose simulator verdict is `exists`. */
function cnpjWhere(exists: boolean, start = 112223330001): string {
  for (let n = start; ; n++) {
    const c = withCnpjCheckDigits(String(n).padStart(12, '0'));
    if ((charSum(c) % 7 !== 0) === exists) return c;
  }
}
function cpfWhere(exists: boolean, start = 123456789): string {
  for (let n = start; ; n++) {
    const c = withCpfCheckDigits(String(n));
    if ((charSum(c) % 7 !== 0) === exists) return c;
  }
}

function envelope(res: any, status: number, slug: string, detail: string, path: string, extra: Record<string, unknown> = {}) {
  return { error: { type: `https://errors.test/${slug}`, title: res.body.error.title, status, detail, ...extra, instance: path, requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp } };
}

test.serial('queries with the built-in simulator provider: found, not found, wrong check digits', async (t) => {
  const stack = await startStack({ nodes: [{ services: ['api-gateway', 'issuer'], extra: [FakeAuthService] }] });
  t.teardown(() => stack.stop());

  const cnpj = cnpjWhere(true);
  const formatted = `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}%2F${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
  for (const path of [`/v1/queries/cnpj/${cnpj}`, `/v1/queries/cnpj/${formatted}`]) {
    const res = await stack.request('GET', path, { headers: H });
    t.is(res.status, 200, JSON.stringify(res.body));
    t.like(res.body.data, { cnpj, razaoSocial: `EMPRESA SIMULADA ${cnpj.slice(0, 8)} LTDA`, situacao: 'ATIVA', cnae: '6201501' });
    t.deepEqual(Object.keys(res.body.data).sort(), ['abertura', 'cnae', 'cnpj', 'codigoMunicipio', 'municipio', 'nomeFantasia', 'razaoSocial', 'situacao', 'uf']);
  }
  const again = await stack.request('GET', `/v1/queries/cnpj/${cnpj}`, { headers: H });
  t.deepEqual(again.body.data, (await stack.request('GET', `/v1/queries/cnpj/${cnpj}`, { headers: H })).body.data, 'deterministic');

  const missing = cnpjWhere(false);
  const nf = await stack.request('GET', `/v1/queries/cnpj/${missing}`, { headers: H });
  t.is(nf.status, 404);
  t.deepEqual(nf.body, envelope(nf, 404, 'NOT_FOUND', 'Documento não encontrado no cadastro consultado.', `/v1/queries/cnpj/${missing}`));

  const bad = await stack.request('GET', '/v1/queries/cnpj/11222333000100', { headers: H });
  t.is(bad.status, 400);
  t.deepEqual(bad.body, envelope(bad, 400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', '/v1/queries/cnpj/11222333000100', { errors: [{ field: 'cnpj', message: 'CNPJ inválido: dígitos verificadores não conferem.' }] }));

  const cpf = cpfWhere(true);
  const okCpf = await stack.request('GET', `/v1/queries/cpf/${cpf}`, { headers: H });
  t.is(okCpf.status, 200);
  t.deepEqual(okCpf.body.data, { cpf, nome: `PESSOA SIMULADA ${cpf.slice(-4)}`, situacao: 'REGULAR' });
  const nfCpf = await stack.request('GET', `/v1/queries/cpf/${cpfWhere(false)}`, { headers: H });
  t.is(nfCpf.status, 404);
  const badCpf = await stack.request('GET', '/v1/queries/cpf/12345678900', { headers: H });
  t.is(badCpf.status, 400);
  t.deepEqual(badCpf.body.error.errors, [{ field: 'cpf', message: 'CPF inválido: dígitos verificadores não conferem.' }]);
  const unauth = await stack.request('GET', `/v1/queries/cpf/${cpf}`);
  t.is(unauth.status, 401);
});

test.serial('queries through a configured provider: 404, 500, invalid JSON, wrong shape, hang and refused connection', async (t) => {
  type Mode = 'ok' | '404' | '500' | 'garbage' | 'shape' | 'hang';
  let mode = 'ok' as Mode;
  const hanging: any[] = [];
  const server: Server = createServer((req, res) => {
    const doc = (req.url ?? '').split('/').pop()!;
    if (mode === 'hang') { hanging.push(res); return; }
    if (mode === '404') { res.writeHead(404); res.end('{}'); return; }
    if (mode === '500') { res.writeHead(500); res.end('{"erro":"falhou"}'); return; }
    if (mode === 'garbage') { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<html>oops</html>'); return; }
    if (mode === 'shape') { res.writeHead(200); res.end(JSON.stringify({ cnpj: doc })); return; }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(req.url!.startsWith('/cnpj/') ? { cnpj: doc, razaoSocial: 'REAL SA', situacao: 'ATIVA' } : { cpf: doc, nome: 'FULANO', situacao: 'REGULAR' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  t.teardown(() => { for (const r of hanging) r.destroy(); server.close(); });

  const stack = await startStack({ env: { LOOKUP_PROVIDER_URL: `http://127.0.0.1:${port}/` }, nodes: [{ services: ['api-gateway', 'issuer'], extra: [FakeAuthService] }] });
  t.teardown(() => stack.stop());
  const cnpj = cnpjWhere(false); // the simulator would say 404: proves the configured provider answers
  const path = `/v1/queries/cnpj/${cnpj}`;

  const ok = await stack.request('GET', path, { headers: H });
  t.is(ok.status, 200);
  t.deepEqual(ok.body.data, { cnpj, razaoSocial: 'REAL SA', nomeFantasia: null, situacao: 'ATIVA', uf: null, municipio: null, codigoMunicipio: null, cnae: null, abertura: null });

  const cases: [Mode, number, string, string, Record<string, unknown>?][] = [
    ['404', 404, 'NOT_FOUND', 'Documento não encontrado no cadastro consultado.'],
    ['500', 502, 'BAD_GATEWAY', 'Provedor de consulta respondeu com erro.', { details: { statusProvedor: 500 } }],
    ['garbage', 502, 'BAD_GATEWAY', 'Provedor de consulta respondeu algo que não é JSON.'],
    ['shape', 502, 'BAD_GATEWAY', 'Resposta do provedor de consulta fora do formato esperado.'],
    ['hang', 503, 'SERVICE_UNAVAILABLE', 'Provedor de consulta indisponível ou sem resposta.'],
  ];
  for (const [m, status, slug, detail, extra] of cases) {
    mode = m;
    const started = Date.now();
    const res = await stack.request('GET', path, { headers: H });
    t.is(res.status, status, m);
    t.deepEqual(res.body, envelope(res, status, slug, detail, path, extra), m);
    if (m === 'hang') t.true(Date.now() - started < 10_000, 'timeout bounds the wait');
  }
  mode = 'ok';
  const cpf = await stack.request('GET', `/v1/queries/cpf/${cpfWhere(true)}`, { headers: H });
  t.deepEqual(cpf.body.data, { cpf: cpfWhere(true), nome: 'FULANO', situacao: 'REGULAR' });

  await new Promise<void>((r) => { for (const h of hanging) h.destroy(); server.close(() => r()); });
  const refused = await stack.request('GET', path, { headers: H });
  t.is(refused.status, 503);
  t.deepEqual(refused.body, envelope(refused, 503, 'SERVICE_UNAVAILABLE', 'Provedor de consulta indisponível ou sem resposta.', path));
});
