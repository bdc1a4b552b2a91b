import test from 'ava';
import { startSefazStack, createA1, type SefazStack } from '../support/sefaz-stack.js';
import { createCa } from '../support/certificates.js';
import { sampleNfe, type SampleOptions } from '../support/sample-nfe.js';
import { validateXml } from '../../lib/xml/xsd.js';
import { NFE_SCHEMAS } from '../../lib/xml/schemas.js';
import { buildEnviNFe } from '../../lib/sefaz/messages.js';
import { parseRetEnviNFe } from '../../lib/sefaz/parsers.js';
import { AuthorityAnswer } from '../../lib/sefaz/answer.js';
import { cstatText } from '../../lib/sefaz/cstat.js';
import { verifyDfe } from '../support/verify-dfe.js';

const CNPJ = '12345678000195';
const OTHER_CNPJ = '98765432000198';
let s: SefazStack;
let a1: ReturnType<typeof createA1>;
let numero = 100;

test.before(async () => {
  s = await startSefazStack();
  a1 = createA1(s.ca, { cnpj: CNPJ });
  s.addIssuer('iss-1', a1);
});
test.after.always(async () => { await s?.stack.stop(); });
test.afterEach.always(async () => { await s.clearFaults(); });

const target = { uf: 'SP', model: '55', ambiente: 2 } as const;
function note(o: Partial<SampleOptions> = {}) {
  // Dated by the stack's clock: the simulator refuses an event dated before its note (577).
  return sampleNfe({ cnpj: CNPJ, keyPem: a1.keyPem, certPem: a1.certPem, numero: numero++, at: s.clock.now(), ...o });
}
function authorize(n: { xml: string; accessKey: string }, extra: Record<string, unknown> = {}) {
  return s.call('v1.sefaz.authorize', { ...target, issuerId: 'iss-1', signedNfeXml: n.xml, accessKey: n.accessKey, ...extra });
}

test.serial('authorize answers 100 with a protNFe that builds a valid nfeProc', async (t) => {
  const n = note();
  const r = await authorize(n);
  t.is(r.kind, 'authorized');
  t.is(r.cStat, 100);
  t.is(r.xMotivo, 'Autorizado o uso da NF-e');
  t.regex(r.protocol, /^135\d{12}$/);
  t.regex(r.receivedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-03:00$/);
  t.is(r.digest, /<DigestValue>([^<]+)<\/DigestValue>/.exec(n.xml)![1]);
  t.true(r.protNFeXml.includes(`<chNFe>${n.accessKey}</chNFe>`));
  const proc = `<nfeProc xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00">${n.xml}${r.protNFeXml}</nfeProc>`;
  t.deepEqual(validateXml(NFE_SCHEMAS.nfeProc, proc), { valid: true, errors: [] });
  const check = verifyDfe({ nfeProc: proc });
  t.true(check.ok, check.output);
});

test.serial('authorize in asynchronous mode returns a receipt that fetchReceipt resolves', async (t) => {
  const n = note();
  const r = await authorize(n, { sync: false });
  t.is(r.kind, 'processing');
  t.is(r.cStat, 103);
  const done = await s.call('v1.sefaz.fetchReceipt', { ...target, issuerId: 'iss-1', receipt: r.receipt, accessKey: n.accessKey });
  t.is(done.kind, 'authorized');
  t.is(done.cStat, 100);
});

test.serial('the client refuses to send a lot that is not one signed NFe; the NFe itself is checked once, by the emission pipeline', async (t) => {
  const unsigned = note().xml.replace(/<Signature[\s\S]*<\/Signature>/, '');
  await t.throwsAsync(authorize({ xml: unsigned, accessKey: '0'.repeat(44) }), { message: /enviNFe does not validate against the official XSD: the lot must carry exactly one signed NFe/ });
  // An NFe that fails the schema never reaches here from emission (buildSignedNfe validates it
  // before it is stored: lib/sefaz/validate.ts assertOutgoing); sent anyway, the authority answers 225.
  const broken = note({ breakSchema: true });
  t.like(await authorize(broken), { kind: 'rejected', cStat: 225 });
});

test.serial('simulator rejects a batch that fails the schema with 225 verbatim; the libxml2 message is on the inspection route', async (t) => {
  const n = note({ breakSchema: true });
  const body = await s.rawPost('NFeAutorizacao4', buildEnviNFe({ idLote: '1', signedNfeXml: n.xml }), a1);
  const r = parseRetEnviNFe(body);
  t.like(r, { kind: 'rejected', cStat: 225, xMotivo: 'Rejeição: Falha no Schema XML do lote de NFe' });
  const inspected = await (await fetch(`${s.simulator.adminUrl}/__admin/rejeicoes?limit=1`)).json() as { rejeicoes: { cStat: number; service: string; details: string[] }[] };
  t.like(inspected.rejeicoes[0], { cStat: 225, service: 'NFeAutorizacao4' });
  t.regex(inspected.rejeicoes[0]!.details[0]!, /natOp|Element/);
});

test.serial('a note changed after signing is rejected with 297', async (t) => {
  const r = await authorize(note({ tamperAfterSigning: true }));
  t.like(r, { kind: 'rejected', cStat: 297, xMotivo: 'Rejeição: Assinatura difere do calculado' });
});

test.serial('an emitter CNPJ other than the certificate one is rejected with 213', async (t) => {
  const n = sampleNfe({ cnpj: OTHER_CNPJ, keyPem: a1.keyPem, certPem: a1.certPem, numero: numero++ });
  const r = await authorize(n);
  t.like(r, { kind: 'rejected', cStat: 213, xMotivo: cstatText(213) });
});

test.serial('a key whose check digit does not match the fields is rejected with 502', async (t) => {
  const r = await authorize(note({ wrongCheckDigit: true }));
  t.like(r, { kind: 'rejected', cStat: 502, xMotivo: cstatText(502) });
});

test.serial('the same note sent twice is rejected with 204 naming the first receipt', async (t) => {
  const n = note();
  t.is((await authorize(n)).kind, 'authorized');
  const again = await authorize(n);
  t.is(again.kind, 'rejected');
  t.is(again.cStat, 204);
  t.regex(again.xMotivo, /^Rejeição: Duplicidade de NF-e \[nRec:\d{15}\]$/);
});

test.serial('the same number with a different key is rejected with 539 naming the first key', async (t) => {
  const first = note({ cNF: '11112222' });
  numero--;
  const second = note({ cNF: '33334444' });
  t.is((await authorize(first)).kind, 'authorized');
  const r = await authorize(second);
  t.is(r.cStat, 539);
  t.true(r.xMotivo.includes(`[chNFe:${first.accessKey}]`));
});

test.serial('a note without infRespTec is rejected with 972', async (t) => {
  const r = await authorize(note({ withoutInfRespTec: true }));
  t.like(r, { kind: 'rejected', cStat: 972, xMotivo: 'Rejeição: Obrigatória as informações do responsável técnico' });
});

test.serial('a non-contributor recipient without indFinal 1 is rejected with 696', async (t) => {
  const r = await authorize(note({ nonContributorNotFinal: true }));
  t.like(r, { kind: 'rejected', cStat: 696 });
});

test.serial('consult finds an authorized note (100) and not an unknown one (217)', async (t) => {
  const n = note();
  const auth = await authorize(n);
  const found = await s.call('v1.sefaz.consult', { ...target, issuerId: 'iss-1', accessKey: n.accessKey });
  t.like(found, { kind: 'authorized', cStat: 100, protocol: auth.protocol });
  const other = note();
  const missing = await s.call('v1.sefaz.consult', { ...target, issuerId: 'iss-1', accessKey: other.accessKey });
  t.deepEqual(missing, { kind: 'not-found', cStat: 217, xMotivo: 'Rejeição: NF-e não consta na base de dados da SEFAZ' });
});

test.serial('status answers 107, and 108/109 while the UF is marked down', async (t) => {
  const up = await s.call('v1.sefaz.status', { uf: 'MG', model: '55', ambiente: 2, issuerId: 'iss-1' });
  t.like(up, { kind: 'up', cStat: 107, xMotivo: 'Serviço em Operação' });
  t.is((await s.fault({ mode: 'down', uf: 'MG' })).status, 201);
  t.like(await s.call('v1.sefaz.status', { uf: 'MG', model: '55', ambiente: 2, issuerId: 'iss-1' }), { kind: 'down', cStat: 108 });
  await s.clearFaults();
  await s.fault({ mode: 'down', uf: 'MG', cStat: 109 });
  t.like(await s.call('v1.sefaz.status', { uf: 'MG', model: '55', ambiente: 2, issuerId: 'iss-1' }), { kind: 'down', cStat: 109, xMotivo: 'Serviço Paralisado sem Previsão' });
  t.like(await s.call('v1.sefaz.status', { uf: 'RS', model: '55', ambiente: 2, issuerId: 'iss-1' }), { kind: 'up' });
});

test.serial('the client disposes every answer it reads (libxml2 memory): a result, an answer that does not parse, the service down', async (t) => {
  const read = AuthorityAnswer.read;
  const dispose = AuthorityAnswer.prototype.dispose;
  const count = { reads: 0, disposals: 0 };
  AuthorityAnswer.read = (xml: string) => { const a = read.call(AuthorityAnswer, xml); count.reads++; return a; };
  AuthorityAnswer.prototype.dispose = function (this: AuthorityAnswer) { count.disposals++; dispose.call(this); };
  try {
    t.like(await authorize(note()), { kind: 'authorized', cStat: 100 });
    const other = note();
    t.deepEqual(await authorize(other, { accessKey: '3'.repeat(44) }), { kind: 'unknown', reason: 'malformed-response', detail: `protNFe is for ${other.accessKey}, expected ${'3'.repeat(44)}` });
    await s.fault({ mode: 'down', uf: 'MG' });
    t.like(await s.call('v1.sefaz.status', { uf: 'MG', model: '55', ambiente: 2, issuerId: 'iss-1' }), { kind: 'down', cStat: 108 });
  } finally {
    AuthorityAnswer.read = read;
    AuthorityAnswer.prototype.dispose = dispose;
  }
  t.deepEqual(count, { reads: 3, disposals: 3 });
});

test.serial('status without an issuer reuses a pooled client certificate', async (t) => {
  await s.call('v1.sefaz.status', { uf: 'SC', model: '65', ambiente: 2, issuerId: 'iss-1' });
  t.like(await s.call('v1.sefaz.status', { uf: 'SC', model: '65', ambiente: 2 }), { kind: 'up', cStat: 107 });
});

test.serial('the admin endpoint refuses an unknown fault mode', async (t) => {
  const r = await s.fault({ mode: 'explode' });
  t.is(r.status, 400);
  t.regex(r.body.error, /mode must be one of/);
});

test.serial('cancellation (110111) is registered with 135 and consult then says 101', async (t) => {
  const n = note();
  const auth = await authorize(n);
  const r = await s.call('v1.sefaz.sendEvent', {
    ...target, issuerId: 'iss-1', cnpj: CNPJ, accessKey: n.accessKey, type: 'cancelamento', protocol: auth.protocol,
    justificativa: 'Erro na digitacao do pedido',
  });
  t.is(r.kind, 'registered');
  t.is(r.cStat, 135);
  t.is(r.xMotivo, 'Evento registrado e vinculado a NF-e');
  t.deepEqual(validateXml(NFE_SCHEMAS.procEventoNFe, r.procEventoXml), { valid: true, errors: [] });
  const check = verifyDfe({ procEvento: r.procEventoXml });
  t.true(check.ok, check.output);
  const c = await s.call('v1.sefaz.consult', { ...target, issuerId: 'iss-1', accessKey: n.accessKey });
  t.like(c, { kind: 'canceled', cStat: 101 });
  const again = await s.call('v1.sefaz.sendEvent', {
    ...target, issuerId: 'iss-1', cnpj: CNPJ, accessKey: n.accessKey, type: 'cancelamento', protocol: auth.protocol,
    justificativa: 'Erro na digitacao do pedido', sequence: 2,
  });
  t.like(again, { kind: 'rejected', cStat: 218 });
});

test.serial('a correction letter (110110) is registered with 135', async (t) => {
  const n = note();
  await authorize(n);
  const r = await s.call('v1.sefaz.sendEvent', {
    ...target, issuerId: 'iss-1', cnpj: CNPJ, accessKey: n.accessKey, type: 'cce', correcao: 'Endereco de entrega: Rua 4, 331',
  });
  t.like(r, { kind: 'registered', cStat: 135 });
  t.regex(r.protocol, /^\d{15}$/);
});

test.serial('inutilização of an unused range is homologated (102); used or repeated ranges are refused', async (t) => {
  const base = { ...target, issuerId: 'iss-1', cnpj: CNPJ, serie: 7, justificativa: 'Falha no sistema de numeracao' };
  const r = await s.call('v1.sefaz.inutilizar', { ...base, inicio: 10, fim: 12 });
  t.like(r, { kind: 'homologated', cStat: 102, xMotivo: 'Inutilização de número homologado' });
  t.true(r.procInutXml.startsWith('<ProcInutNFe'));
  t.like(await s.call('v1.sefaz.inutilizar', { ...base, inicio: 12, fim: 13 }), { kind: 'rejected', cStat: 256 });
  const used = note({ serie: 8 });
  await authorize(used);
  const n = Number(used.accessKey.slice(25, 34));
  t.like(await s.call('v1.sefaz.inutilizar', { ...base, serie: 8, inicio: n, fim: n }), { kind: 'rejected', cStat: 241 });
});

test.serial('overlapping inutilizações sent at once: exactly one is homologated, the others refused 256', async (t) => {
  const base = { ...target, issuerId: 'iss-1', cnpj: CNPJ, serie: 9, justificativa: 'Falha no sistema de numeracao' };
  const results = await Promise.all([[1, 5], [3, 8], [5, 5], [2, 4]].map(([inicio, fim]) => s.call('v1.sefaz.inutilizar', { ...base, inicio, fim })));
  t.deepEqual(results.map((r: any) => r.cStat).sort(), [102, 256, 256, 256]);
});

test.serial('an authorization and an inutilização of the same number at once: never both succeed', async (t) => {
  for (let round = 0; round < 4; round++) {
    const n = note({ serie: 10 + round });
    const numeroOf = Number(n.accessKey.slice(25, 34));
    const [auth, inut]: any[] = await Promise.all([
      authorize(n),
      s.call('v1.sefaz.inutilizar', { ...target, issuerId: 'iss-1', cnpj: CNPJ, serie: 10 + round, inicio: numeroOf, fim: numeroOf, justificativa: 'Falha no sistema de numeracao' }),
    ]);
    const authorized = auth.kind === 'authorized';
    const homologated = inut.cStat === 102;
    t.true(authorized !== homologated, `round ${round}: authorize ${auth.kind}/${auth.cStat}, inutilizar ${inut.cStat}`);
    if (!authorized) t.is(auth.cStat, 206);
    if (!homologated) t.is(inut.cStat, 241);
  }
});

test.serial('a client certificate not issued by a trusted CA is refused at the TLS layer', async (t) => {
  const rogue = createA1(createCa('AC Desconhecida'), { cnpj: CNPJ });
  s.addIssuer('rogue', rogue);
  const r = await s.call('v1.sefaz.status', { uf: 'SP', model: '55', ambiente: 2, issuerId: 'rogue' });
  t.is(r.kind, 'failed');
  t.is(r.reason, 'tls');
  const n = note();
  const a = await s.call('v1.sefaz.authorize', { ...target, issuerId: 'rogue', signedNfeXml: n.xml, accessKey: n.accessKey });
  t.like(a, { kind: 'failed', reason: 'tls' });
});

test.serial('timeout before processing is a failure (nothing reached the authority)', async (t) => {
  await s.fault({ mode: 'timeout-before-processing', uf: 'SP', service: 'NFeAutorizacao4' });
  const n = note();
  const r = await authorize(n);
  t.like(r, { kind: 'failed', reason: 'timeout-before-send' });
  await s.clearFaults();
  t.like(await s.call('v1.sefaz.consult', { ...target, issuerId: 'iss-1', accessKey: n.accessKey }), { kind: 'not-found' });
});

test.serial('a connection dropped after processing is an unknown outcome, and consult finds the note authorized', async (t) => {
  await s.fault({ mode: 'drop-after-processing', uf: 'SP', service: 'NFeAutorizacao4', times: 1 });
  const n = note();
  const r = await authorize(n);
  t.is(r.kind, 'unknown');
  t.is(r.reason, 'connection-lost-after-send');
  const c = await s.call('v1.sefaz.consult', { ...target, issuerId: 'iss-1', accessKey: n.accessKey });
  t.like(c, { kind: 'authorized', cStat: 100 });
});

test.serial('intermittent TLS failures on new connections are failures (never unknown); reads recover by retrying', async (t) => {
  // Fresh issuers have no pooled connection, so each call below opens a new one.
  s.addIssuer('iss-fresh-1', createA1(s.ca, { cnpj: CNPJ }));
  s.addIssuer('iss-fresh-2', createA1(s.ca, { cnpj: CNPJ }));
  await s.fault({ mode: 'tls-flaky', every: 1, times: 1 });
  const n = note();
  const r = await s.call('v1.sefaz.authorize', { ...target, issuerId: 'iss-fresh-1', signedNfeXml: n.xml, accessKey: n.accessKey });
  t.is(r.kind, 'failed');
  t.true(['tls', 'connect'].includes(r.reason));
  await s.fault({ mode: 'tls-flaky', every: 1, times: 1 });
  t.like(await s.call('v1.sefaz.status', { uf: 'GO', model: '55', ambiente: 2, issuerId: 'iss-fresh-2' }), { kind: 'up', cStat: 107 });
});

test.serial('the breaker opens after consecutive failures, refuses without calling, and closes after recovery', async (t) => {
  await s.fault({ mode: 'timeout-before-processing', uf: 'PR' });
  const st = () => s.call('v1.sefaz.status', { uf: 'PR', model: '55', ambiente: 2, issuerId: 'iss-1' });
  t.like(await st(), { kind: 'failed', reason: 'timeout-before-send' }); // 2 attempts
  t.like(await st(), { kind: 'failed' }); // 3rd failure opens it
  const started = Date.now();
  t.like(await st(), { kind: 'failed', reason: 'circuit-open' });
  t.true(Date.now() - started < 500);
  // Other UFs are not affected.
  t.like(await s.call('v1.sefaz.status', { uf: 'MG', model: '55', ambiente: 2, issuerId: 'iss-1' }), { kind: 'up' });
  await s.clearFaults();
  t.like(await st(), { kind: 'failed', reason: 'circuit-open' }); // still cooling down
  s.clock.advance(61_000);
  t.like(await st(), { kind: 'up', cStat: 107 }); // half-open trial succeeds → closed
  t.like(await st(), { kind: 'up' });
});

test.serial('endpoint choice: an override URL or sandbox wins over the table; production without override goes to the authority', async (t) => {
  const prod = { uf: 'SP', model: '55', ambiente: 1, issuerId: 'iss-1' } as const;
  // The simulator is a homologation authority: a production message reaching it is refused with 252,
  // which is how these show that the override (and the sandbox flag) sent it there.
  const refusedAsProduction = { cStat: 252, xMotivo: 'Rejeição: Ambiente informado diverge do Ambiente de recebimento' };
  t.like(await s.call('v1.sefaz.status', { ...prod, endpointUrl: s.simulator.url }), refusedAsProduction);
  t.like(await s.call('v1.sefaz.status', { ...prod, endpointUrl: `${s.simulator.url}/ws/SP/{service}.asmx` }), refusedAsProduction);
  t.like(await s.call('v1.sefaz.status', { ...prod, sandbox: true }), refusedAsProduction);
  t.like(await s.call('v1.sefaz.status', { ...prod, ambiente: 2, endpointUrl: s.simulator.url }), { kind: 'up', cStat: 107 });
  const real = await s.call('v1.sefaz.status', prod);
  t.is(real.kind, 'failed', 'the real SEFAZ-SP is not reachable from the test machine');
});

test.serial('a UF whose service is down answers HTTP 503 before the body is sent: failed, not unknown', async (t) => {
  await s.fault({ mode: 'down', uf: 'SP', service: 'NFeAutorizacao4' });
  const n = note();
  const r = await authorize(n);
  t.like(r, { kind: 'failed', reason: 'http-status' });
  t.regex(r.detail, /^HTTP 503/);
  await s.clearFaults();
  t.like(await s.call('v1.sefaz.consult', { ...target, issuerId: 'iss-1', accessKey: n.accessKey }), { kind: 'not-found' });
});

test.serial('no answer within the read timeout after sending is unknown, and the note is then found by consult', async (t) => {
  await s.fault({ mode: 'slow', uf: 'SP', service: 'NFeAutorizacao4', delayMs: 4_500, times: 1 });
  const n = note();
  t.like(await authorize(n), { kind: 'unknown', reason: 'timeout-after-send' });
  // The simulator finishes processing after the client gave up: the note exists.
  await new Promise((r) => setTimeout(r, 1_500));
  t.like(await s.call('v1.sefaz.consult', { ...target, issuerId: 'iss-1', accessKey: n.accessKey }), { kind: 'authorized' });
});

test.serial('simulator rejects namespace prefixes in the data area with 404', async (t) => {
  const n = note();
  const prefixed = `<nfe:enviNFe xmlns:nfe="http://www.portalfiscal.inf.br/nfe" versao="4.00"><nfe:idLote>1</nfe:idLote><nfe:indSinc>1</nfe:indSinc>${n.xml}</nfe:enviNFe>`;
  const r = parseRetEnviNFe(await s.rawPost('NFeAutorizacao4', prefixed, a1));
  t.like(r, { kind: 'rejected', cStat: 404, xMotivo: 'Rejeição: Uso de prefixo de namespace não permitido' });
});
