import test from 'ava';
import { STATUS_CODES } from 'node:http';
import { startStack, type HttpResult, type Stack } from '../support/stack.js';
import { aValidNfceBody, aValidNfeBody, anItem } from '../support/nfe-factories.js';
import { companyWithA1, integratorWithA1, SANDBOX_CSC } from '../support/e2e.js';
import { verifyDfe } from '../support/verify-dfe.js';
import { CATALOG, type ErrorCode } from '../../lib/errors/index.js';
import { formatDate, formatTime } from '../../lib/danfe/format.js';
import { toDhSaiEnt } from '../../lib/nfe/rules/saida-entrada.js';
import type { NfeBody } from '../../lib/nfe/types.js';

/**
 * Issue 22, items 1 and 3, over HTTP with every service real: the README's NF-e body with one field
 * changed as the issue tried it (recipient CPF and CNPJ with a wrong check digit, `ie: "123"` for an
 * SP contributor, municipality 3550309) answers 422 with its catalogued code and whole envelope,
 * stores nothing and uses no number: the next valid note takes number 1. The same for an IPI
 * group without `cst` in an NFC-e. `dataSaidaEntrada` reaches the XML (dhSaiEnt, official XSD) and
 * the DANFE.
 */
let stack: Stack;
let headers: Record<string, string>;

test.before(async () => {
  stack = await startStack();
  ({ headers } = await integratorWithA1(stack, SANDBOX_CSC));
});
test.after.always(async () => { await stack?.stop(); });

function envelope(res: HttpResult, instance: string, code: ErrorCode, detail: string, details: Record<string, unknown>) {
  const status = CATALOG[code].status;
  return {
    error: {
      type: `https://errors.test/${code}`, title: STATUS_CODES[status], status, detail, details,
      instance, requestId: res.headers.get('x-request-id'), timestamp: res.body?.error?.timestamp,
    },
  };
}

const documents = async () => Number((await stack.knex('emission.documents').count('* as n'))[0]!.n);

async function refused(t: any, path: '/v1/nfe' | '/v1/nfce', body: unknown, code: ErrorCode, detail: string, details: Record<string, unknown>) {
  const before = await documents();
  const res = await stack.request('POST', path, { headers, body });
  t.is(res.status, 422, res.text);
  t.deepEqual(res.body, envelope(res, path, code, detail, details));
  t.is(await documents(), before, 'a refusal stored a document');
}

const readme = aValidNfeBody();
const withDest = (dest: Partial<NfeBody['destinatario']>): NfeBody => aValidNfeBody({ destinatario: { ...readme.destinatario, ...dest } });

test.serial('the issue 22 identifiers answer 422 with their code before numbering; the next valid NF-e is number 1', async (t) => {
  await refused(t, '/v1/nfe', withDest({ cnpjCpf: '52998224726' }), 'CPF_INVALIDO',
    "CPF inválido em 'destinatario.cnpjCpf': dígitos verificadores não conferem.", { campo: 'destinatario.cnpjCpf', valor: '52998224726' });
  await refused(t, '/v1/nfe', withDest({ cnpjCpf: '11444777000163' }), 'CNPJ_INVALIDO',
    "CNPJ inválido em 'destinatario.cnpjCpf': dígitos verificadores não conferem.", { campo: 'destinatario.cnpjCpf', valor: '11444777000163' });
  await refused(t, '/v1/nfe', withDest({ cnpjCpf: '11444777000161', indicadorIE: 1, ie: '123' }), 'IE_INVALIDA',
    "Inscrição estadual inválida em 'destinatario.ie': formato ou dígito verificador não confere com as regras de SP.",
    { campo: 'destinatario.ie', valor: '123', uf: 'SP', motivo: 'formato ou dígito verificador não confere com as regras de SP' });
  await refused(t, '/v1/nfe', withDest({ endereco: { ...readme.destinatario.endereco, codigoMunicipio: '3550309' } }), 'MUNICIPIO_INVALIDO',
    "'destinatario.endereco.codigoMunicipio' 3550309 não é código IBGE de município.",
    { campo: 'destinatario.endereco.codigoMunicipio', valor: '3550309', uf: 'SP' });
  await refused(t, '/v1/nfe', aValidNfeBody({ transporte: { modFrete: 0, transportador: { cnpjCpf: '11444777000163', nome: 'Transportes Rapidos' } } }), 'CNPJ_INVALIDO',
    "CNPJ inválido em 'transporte.transportador.cnpjCpf': dígitos verificadores não conferem.", { campo: 'transporte.transportador.cnpjCpf', valor: '11444777000163' });

  const ok = await stack.request('POST', '/v1/nfe', { headers, body: withDest({ cnpjCpf: '11444777000161', indicadorIE: 1, ie: '110042490114' }) });
  t.is(ok.status, 201, ok.text);
  t.is(ok.body.data.status, 'AUTHORIZED');
  t.is(ok.body.data.number, 1);
});

test.serial('an IPI group without cst in an NFC-e answers 422 IPI_NAO_SUPORTADO, not 400; the next NFC-e is number 1', async (t) => {
  await refused(t, '/v1/nfce', aValidNfceBody({ items: [anItem({ ipi: { cEnq: '999' } as any })] }), 'IPI_NAO_SUPORTADO',
    CATALOG.IPI_NAO_SUPORTADO.detail, { item: 0, campo: 'items[0].ipi' });
  await refused(t, '/v1/nfce', aValidNfceBody({ destCPF: '52998224726' }), 'CPF_INVALIDO',
    "CPF inválido em 'destCPF': dígitos verificadores não conferem.", { campo: 'destCPF', valor: '52998224726' });
  const ok = await stack.request('POST', '/v1/nfce', { headers, body: aValidNfceBody() });
  t.is(ok.status, 201, ok.text);
  t.is(ok.body.data.number, 1);
});

test.serial('dataSaidaEntrada is written as dhSaiEnt in Brasília time, passes the official XSD and is printed on the DANFE', async (t) => {
  // Tomorrow (UTC) at 11:15:42Z: a date and a time the DANFE prints nowhere else (emission is today).
  const tomorrow = `${new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10)}T11:15:42Z`;
  const expected = toDhSaiEnt(tomorrow)!;
  t.regex(expected, /T08:15:42-03:00$/);
  const res = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ dataSaidaEntrada: tomorrow }) });
  t.is(res.status, 201, res.text);
  t.is(res.body.data.status, 'AUTHORIZED');
  const xml = await stack.request('GET', `/v1/nfe/${res.body.data.id}/xml`, { headers });
  t.regex(xml.text, new RegExp(`</dhEmi><dhSaiEnt>${expected}</dhSaiEnt><tpNF>`));
  const independent = verifyDfe({ nfeProc: xml.text });
  t.true(independent.ok, independent.output);
  const html = await stack.request('GET', `/v1/nfe/${res.body.data.id}/danfe.html`, { headers });
  t.is(html.status, 200);
  t.true(html.text.includes(formatDate(expected)));
  t.true(html.text.includes(formatTime(expected)));
});

// Last: it adds a second issuer, after which every body must name its issuerId.
test.serial("an issuer whose registered ie fails SP's check digit cannot emit: 422 IE_INVALIDA before numbering; fixed, its first note is number 1", async (t) => {
  const { issuerId } = await companyWithA1(stack, headers, { ...SANDBOX_CSC, ie: '123456789' });
  await refused(t, '/v1/nfe', aValidNfeBody({ issuerId }), 'IE_INVALIDA',
    "Inscrição estadual do emissor (123456789) inválida para SP: corrija 'ie' no cadastro do emissor (PATCH /v1/companies/{id}).",
    { campo: 'emitente.ie', valor: '123456789', uf: 'SP', motivo: 'inscrição do cadastro do emissor' });
  const patch = await stack.request('PATCH', `/v1/companies/${issuerId}`, { headers, body: { ie: '110042490114' } });
  t.is(patch.status, 200, patch.text);
  const ok = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ issuerId }) });
  t.is(ok.status, 201, ok.text);
  t.is(ok.body.data.number, 1);
});

test.serial('an issuer whose ie was cleared answers the preflight, 422 CADASTRO_EMISSOR_INCOMPLETO listing ie, not IE_INVALIDA; no number is used', async (t) => {
  const { issuerId } = await companyWithA1(stack, headers, { ...SANDBOX_CSC });
  const cleared = await stack.request('PATCH', `/v1/companies/${issuerId}`, { headers, body: { ie: '' } });
  t.is(cleared.status, 200, cleared.text);
  for (const [path, body] of [['/v1/nfe', aValidNfeBody({ issuerId })], ['/v1/nfce', aValidNfceBody({ issuerId })]] as const) {
    await refused(t, path, body, 'CADASTRO_EMISSOR_INCOMPLETO', 'Cadastro do emissor incompleto: ie.', { camposFaltando: ['ie'] });
  }
  await stack.request('PATCH', `/v1/companies/${issuerId}`, { headers, body: { ie: '110042490114' } });
  const ok = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ issuerId }) });
  t.is(ok.status, 201, ok.text);
  t.is(ok.body.data.number, 1);
});
