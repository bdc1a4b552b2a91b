import test from 'ava';
import { startSefazStack, createA1, type SefazStack } from '../../support/sefaz-stack.js';
import { createCa } from '../../support/certificates.js';
import { rawSefin, resignedDps, signedCancellation, signedDps } from '../../support/sefin.js';
import { toGzipBase64 } from '../../../lib/sefin/payload.js';
import { verifyDfe } from '../../support/verify-dfe.js';
import { verifyNfseDocument } from '../../support/verify-nfse.js';
import { validateXml } from '../../../lib/xml/xsd.js';
import { NFSE_SCHEMAS } from '../../../lib/xml/schemas.js';

const CNPJ = '12345678000195';
let s: SefazStack;
let a1: ReturnType<typeof createA1>;
let nDPS = 1;

test.before(async () => {
  s = await startSefazStack({ SIMULATOR_SEFIN_NAO_ADERENTES: '3304557' });
  a1 = createA1(s.ca, { cnpj: CNPJ });
  s.addIssuer('iss-1', a1);
});
test.after.always(async () => { await s?.stack.stop(); });
test.afterEach.always(async () => { await s.clearFaults(); });

const target = { issuerId: 'iss-1', ambiente: 2 } as const;
const submit = (dps: { xml: string; id: string }) => s.call('v1.sefaz.nfseSubmit', { ...target, signedDpsXml: dps.xml, idDps: dps.id });

test.serial('nfseSubmit authorizes a DPS built by buildSignedDps: 50-digit chave, NFS-e valid against the XSD, both signatures verified', async (t) => {
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  const r = await submit(dps);
  t.is(r.kind, 'authorized', JSON.stringify(r));
  t.regex(r.chaveAcesso, /^\d{50}$/);
  t.is(r.idDps, dps.id);
  t.regex(r.numeroNfse, /^[1-9]\d*$/);
  t.regex(r.authorizedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-03:00$/);
  t.deepEqual(r.alertas, []);
  t.true(r.nfseXml.includes(`Id="NFS${r.chaveAcesso}"`));
  t.deepEqual(validateXml(NFSE_SCHEMAS.nfse, r.nfseXml).errors, []);
  const sent = verifyDfe({ dps: dps.xml });
  t.true(sent.ok, sent.output);
  const nfse = verifyNfseDocument(r.nfseXml);
  t.true(nfse.ok, nfse.output);
  t.regex(nfse.output, /validates[\s\S]*OK[\s\S]*OK/);
  t.false(verifyNfseDocument(r.nfseXml.replace('<nNFSe>', '<nNFSe>9')).ok, 'a changed NFS-e must fail the independent check');
});

test.serial('nfseConsultDps finds the NFS-e of a submitted DPS and answers not-found for another', async (t) => {
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  const sent = await submit(dps);
  const found = await s.call('v1.sefaz.nfseConsultDps', { ...target, idDps: dps.id });
  t.is(found.kind, 'authorized');
  t.like(found, { chaveAcesso: sent.chaveAcesso, idDps: dps.id, numeroNfse: sent.numeroNfse, nfseXml: sent.nfseXml });
  const none = await s.call('v1.sefaz.nfseConsultDps', { ...target, idDps: `DPS${'1'.repeat(42)}` });
  t.deepEqual(none, { kind: 'not-found' });
});

const RIO = { logradouro: 'Rua da Assembleia', numero: '10', bairro: 'Centro', codigoMunicipio: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ', cep: '20011000', telefone: '2133334444' };

test.serial('a DPS whose content changed after signing is rejected with Sefin’s E0714, verbatim', async (t) => {
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  const tampered = { ...dps, xml: dps.xml.replace('Desenvolvimento de sistemas', 'Desenvolvimento de sistemaz') };
  t.not(tampered.xml, dps.xml);
  t.deepEqual(await submit(tampered), {
    kind: 'rejected', httpStatus: 400,
    erros: [{ codigo: 'E0714', descricao: 'Arquivo enviado com erro na assinatura.', complemento: 'digest mismatch' }],
  });
});

test.serial('a DPS signed with another company’s certificate is rejected with E0718', async (t) => {
  const other = createA1(s.ca, { cnpj: '98765432000198' });
  const dps = signedDps(other, { nDPS: nDPS++, now: new Date(), issuer: { cnpj: CNPJ } });
  t.deepEqual(await submit(dps), {
    kind: 'rejected', httpStatus: 400,
    erros: [{ codigo: 'E0718', descricao: 'A assinatura deve ser feita com o certificado digital do emitente da DPS.' }],
  });
});

test.serial('a DPS whose Id differs from its fields is rejected with E0004; one issued in the future with E0008', async (t) => {
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  const wrongId = resignedDps(a1, dps, /<serie>\d+<\/serie>/, '<serie>2</serie>');
  t.deepEqual(await submit({ id: dps.id, xml: wrongId }), {
    kind: 'rejected', httpStatus: 400,
    erros: [{
      codigo: 'E0004', descricao: 'Conteúdo do identificador informado na DPS difere da concatenação dos campos correspondentes.',
      complemento: `esperado ${dps.id.slice(0, 25)}00002${dps.id.slice(30)}`,
    }],
  });
  const future = signedDps(a1, { nDPS: nDPS++, now: new Date(Date.now() + 3_600_000) });
  t.deepEqual(await submit(future), {
    kind: 'rejected', httpStatus: 400,
    erros: [{ codigo: 'E0008', descricao: 'A data e hora de emissão da DPS deve ser anterior ou igual à data do seu processamento (dhProc) pelo Sistema Nacional NFS-e.' }],
  });
});

test.serial('a DPS of a municipality without convênio is rejected with E0037; nfseMunicipality says nao_aderente with the same text', async (t) => {
  const text = 'O código do município emissor informado na DPS é inexistente no cadastro de convênio municipal do sistema nacional.';
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date(), issuer: { endereco: RIO } });
  t.deepEqual(await submit(dps), { kind: 'rejected', httpStatus: 400, erros: [{ codigo: 'E0037', descricao: text }] });
  t.deepEqual(await s.call('v1.sefaz.nfseMunicipality', { ...target, codigoMunicipio: '3304557' }), { kind: 'nao_aderente', mensagem: text });
  t.deepEqual(await s.call('v1.sefaz.nfseMunicipality', { ...target, codigoMunicipio: '3550308' }), { kind: 'aderente' });
  t.deepEqual(await s.call('v1.sefaz.nfseMunicipality', { ...target, codigoMunicipio: '9999999' }), { kind: 'nao_aderente', mensagem: text });
  // The table can change while the simulator runs (SefazSimulator.sefinNonAdherent).
  s.simulator.sefinNonAdherent.add('3550308');
  try {
    t.deepEqual(await s.call('v1.sefaz.nfseMunicipality', { ...target, codigoMunicipio: '3550308' }), { kind: 'nao_aderente', mensagem: text });
  } finally {
    s.simulator.sefinNonAdherent.delete('3550308');
  }
});

test.serial('the same DPS sent again: Sefin answers E0014 naming the existing chave, and nfseSubmit settles it as that NFS-e', async (t) => {
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  const first = await submit(dps);
  t.is(first.kind, 'authorized');
  const raw = await rawSefin(s.simulator, a1, 'POST', '/SefinNacional/nfse', { dpsXmlGZipB64: toGzipBase64(dps.xml) });
  t.is(raw.status, 400);
  t.like(raw.body, { tipoAmbiente: 2, idDPS: dps.id });
  t.deepEqual(raw.body.erros, [{
    Codigo: 'E0014',
    Descricao: 'Conjunto de Série, Número, Código do Município Emissor e CNPJ/CPF informado nesta DPS já existe em uma NFS-e gerada a partir de uma DPS enviada anteriormente.',
    Complemento: `chaveAcesso ${first.chaveAcesso}`,
  }]);
  const again = await submit(dps);
  t.is(again.kind, 'authorized');
  t.like(again, { chaveAcesso: first.chaveAcesso, numeroNfse: first.numeroNfse, nfseXml: first.nfseXml });
  t.deepEqual(again.alertas.map((a: any) => a.codigo), ['E0014']);
  // E0014 while the consult cannot be read: the outcome stays open (unknown), never rejected.
  await s.fault({ mode: 'down', service: 'SefinDps' });
  t.like(await submit(dps), { kind: 'unknown', reason: 'http-status' });
});

test.serial('reception rules answer with their official codes: E1225 (base64), E1226 (gzip), E1228 (prefix), E1242 (document type), E1235 (schema)', async (t) => {
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  const post = (dpsXmlGZipB64: string) => rawSefin(s.simulator, a1, 'POST', '/SefinNacional/nfse', { dpsXmlGZipB64 });
  const first = async (b64: string) => (await post(b64)).body.erros[0];
  t.like(await first('@@@'), { Codigo: 'E1225', Descricao: 'Falha na decodificação da base 64 da área de dados' });
  t.like(await first(Buffer.from(dps.xml).toString('base64')), { Codigo: 'E1226', Descricao: 'Estrutura descompactada mal formada.' });
  t.like(await first(toGzipBase64(dps.xml.replace(/<(\/?)DPS/g, '<$1n:DPS').replace('xmlns=', 'xmlns:n='))), {
    Codigo: 'E1228', Descricao: 'Uso de prefixo de namespace não permitido na área de dados descompactada.',
  });
  t.like(await first(toGzipBase64('<NFSe xmlns="http://www.sped.fazenda.gov.br/nfse"></NFSe>')), { Codigo: 'E1242', Descricao: 'Tipo DF-e não tratado pelo Sistema Nacional NFS-e.' });
  const schema = await first(toGzipBase64(dps.xml.replace(/<dCompet>[^<]*<\/dCompet>/, '')));
  t.like(schema, { Codigo: 'E1235', Descricao: 'Falha no esquema XML do DF-e.' });
  t.regex(schema.Complemento, /tpEmit/);
});

test.serial('cancellation: nfseEvent registers e101101 (evento valid and signed), nfseConsult then says canceled; repeating it answers the same event', async (t) => {
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  const nfse = await submit(dps);
  t.is((await s.call('v1.sefaz.nfseConsult', { ...target, chaveAcesso: nfse.chaveAcesso })).kind, 'authorized');
  const ev = await s.call('v1.sefaz.nfseEvent', { ...target, chaveAcesso: nfse.chaveAcesso, signedEventXml: signedCancellation(a1, nfse.chaveAcesso, new Date()) });
  t.is(ev.kind, 'registered', JSON.stringify(ev));
  t.regex(ev.registeredAt, /-03:00$/);
  t.true(ev.eventXml.includes(`Id="EVT${nfse.chaveAcesso}101101001"`));
  const check = verifyNfseDocument(ev.eventXml, 'evento');
  t.true(check.ok, check.output);
  const consult = await s.call('v1.sefaz.nfseConsult', { ...target, chaveAcesso: nfse.chaveAcesso });
  t.like(consult, { kind: 'canceled', chaveAcesso: nfse.chaveAcesso, idDps: dps.id, nfseXml: nfse.nfseXml });
  // The registered event as Sefin holds it: what settles a cancellation whose answer was lost.
  t.deepEqual(consult.cancelamento, { eventXml: ev.eventXml, registeredAt: ev.registeredAt });
  const again = await s.call('v1.sefaz.nfseEvent', { ...target, chaveAcesso: nfse.chaveAcesso, signedEventXml: signedCancellation(a1, nfse.chaveAcesso, new Date()) });
  t.deepEqual(again, ev);
});

test.serial('a cancellation asked by another company is rejected with E0718; an unknown chave is not-found', async (t) => {
  const nfse = await submit(signedDps(a1, { nDPS: nDPS++, now: new Date() }));
  const other = createA1(s.ca, { cnpj: '98765432000198' });
  const ev = await s.call('v1.sefaz.nfseEvent', { ...target, chaveAcesso: nfse.chaveAcesso, signedEventXml: signedCancellation(other, nfse.chaveAcesso, new Date()) });
  t.deepEqual(ev, { kind: 'rejected', httpStatus: 400, erros: [{ codigo: 'E0718', descricao: 'A assinatura deve ser feita com o certificado digital do emitente da DPS.' }] });
  t.is((await s.call('v1.sefaz.nfseConsult', { ...target, chaveAcesso: nfse.chaveAcesso })).kind, 'authorized');
  const unknown = nfse.chaveAcesso.slice(0, 30) + '9999999999999999999' + nfse.chaveAcesso.slice(49);
  t.deepEqual(await s.call('v1.sefaz.nfseConsult', { ...target, chaveAcesso: unknown }), { kind: 'not-found' });
  t.deepEqual(await s.call('v1.sefaz.nfseEvent', { ...target, chaveAcesso: unknown, signedEventXml: signedCancellation(a1, unknown, new Date()) }), {
    kind: 'rejected', httpStatus: 404, erros: [{ codigo: '', descricao: 'Chave de acesso não encontrada.' }],
  });
});

test.serial('fault down: nfseSubmit is failed (nothing processed) and the DPS has no NFS-e', async (t) => {
  await s.fault({ mode: 'down', service: 'SefinNfse', times: 1 });
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  const r = await submit(dps);
  t.like(r, { kind: 'failed', reason: 'http-status' });
  t.deepEqual(await s.call('v1.sefaz.nfseConsultDps', { ...target, idDps: dps.id }), { kind: 'not-found' });
});

test.serial('fault timeout-before-processing: nfseSubmit is failed before sending; nothing was processed', async (t) => {
  await s.fault({ mode: 'timeout-before-processing', service: 'SefinNfse', times: 1 });
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  t.like(await submit(dps), { kind: 'failed', reason: 'timeout-before-send' });
  t.deepEqual(await s.call('v1.sefaz.nfseConsultDps', { ...target, idDps: dps.id }), { kind: 'not-found' });
});

test.serial('fault drop-after-processing: nfseSubmit is unknown, and the consult by idDps finds the NFS-e Sefin generated', async (t) => {
  await s.fault({ mode: 'drop-after-processing', service: 'SefinNfse', times: 1 });
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  t.like(await submit(dps), { kind: 'unknown', reason: 'connection-lost-after-send' });
  const found = await s.call('v1.sefaz.nfseConsultDps', { ...target, idDps: dps.id });
  t.is(found.kind, 'authorized');
  t.is(found.idDps, dps.id);
});

test.serial('fault slow: a delay under the read timeout still ends authorized; a down consult is failed', async (t) => {
  await s.fault({ mode: 'slow', service: 'SefinNfse', delayMs: 300, times: 1 });
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  t.is((await submit(dps)).kind, 'authorized');
  await s.fault({ mode: 'down', service: 'SefinDps' });
  t.like(await s.call('v1.sefaz.nfseConsultDps', { ...target, idDps: dps.id }), { kind: 'failed', reason: 'http-status' });
});

test.serial('fault slow longer than the connect timeout (1.2 s here): Sefin holds the DPS after receiving it, so it ends authorized, never timeout-before-send', async (t) => {
  await s.fault({ mode: 'slow', service: 'SefinNfse', delayMs: 2_000, times: 1 });
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  const r = await submit(dps);
  t.like(r, { kind: 'authorized', idDps: dps.id }, JSON.stringify(r));
  t.like(await s.call('v1.sefaz.nfseConsultDps', { ...target, idDps: dps.id }), { kind: 'authorized', chaveAcesso: r.chaveAcesso });
});

test.serial('HEAD and GET /dps/{idDps} answer 200 with the chave, or 404, as Sefin’s reconciliation query', async (t) => {
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  const nfse = await submit(dps);
  t.is((await rawSefin(s.simulator, a1, 'HEAD', `/SefinNacional/dps/${dps.id}`)).status, 200);
  const got = await rawSefin(s.simulator, a1, 'GET', `/SefinNacional/dps/${dps.id}`);
  t.is(got.status, 200);
  t.like(got.body, { tipoAmbiente: 2, idDps: dps.id, chaveAcesso: nfse.chaveAcesso });
  t.is((await rawSefin(s.simulator, a1, 'HEAD', `/SefinNacional/dps/DPS${'2'.repeat(42)}`)).status, 404);
});

test.serial('a client certificate from a CA the simulator does not trust is refused in the TLS handshake: failed, reason tls', async (t) => {
  s.addIssuer('iss-untrusted', createA1(createCa('AC Desconhecida'), { cnpj: CNPJ }));
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  t.like(await s.call('v1.sefaz.nfseSubmit', { issuerId: 'iss-untrusted', ambiente: 2, signedDpsXml: dps.xml, idDps: dps.id }), { kind: 'failed', reason: 'tls' });
  t.deepEqual(await s.call('v1.sefaz.nfseConsultDps', { ...target, idDps: dps.id }), { kind: 'not-found' });
});

test.serial('host choice: produção restrita and sandbox go to the simulator, an override to its base, produção to sefin.nfse.gov.br', (t) => {
  const client = (s.stack.nodes[0]!.getLocalService({ name: 'sefaz', version: 1 }) as any).sefin;
  const sim = s.simulator.url;
  t.like(client.resolve({ issuerId: 'x', ambiente: 2 }), { bases: { sefin: `${sim}/SefinNacional`, parametrizacao: `${sim}/parametrizacao` }, trustId: 'simulator' });
  t.like(client.resolve({ issuerId: 'x', ambiente: 1, sandbox: true }), { trustId: 'simulator' });
  t.like(client.resolve({ issuerId: 'x', ambiente: 1, endpointUrl: 'https://twin.example:9443' }), { bases: { sefin: 'https://twin.example:9443/SefinNacional' }, trustId: 'custom' });
  t.like(client.resolve({ issuerId: 'x', ambiente: 1 }), { bases: { sefin: 'https://sefin.nfse.gov.br/SefinNacional', parametrizacao: 'https://adn.nfse.gov.br/parametrizacao' }, trustId: 'authority' });
});

test.serial('the actions refuse malformed parameters before any call (strict schemas)', async (t) => {
  const err = await t.throwsAsync(s.call('v1.sefaz.nfseConsultDps', { ...target, idDps: 'DPS123' }));
  t.is((err as any).type, 'VALIDATION_ERROR');
  const extra = await t.throwsAsync(s.call('v1.sefaz.nfseConsult', { ...target, chaveAcesso: '1'.repeat(50), uf: 'SP' }));
  t.is((extra as any).type, 'VALIDATION_ERROR');
});

test.serial('fault drop-after-processing on the event: nfseEvent is unknown, and nfseConsult finds the NFS-e canceled', async (t) => {
  const nfse = await submit(signedDps(a1, { nDPS: nDPS++, now: new Date() }));
  await s.fault({ mode: 'drop-after-processing', service: 'SefinEventos', times: 1 });
  const ev = await s.call('v1.sefaz.nfseEvent', { ...target, chaveAcesso: nfse.chaveAcesso, signedEventXml: signedCancellation(a1, nfse.chaveAcesso, new Date()) });
  t.like(ev, { kind: 'unknown', reason: 'connection-lost-after-send' });
  t.like(await s.call('v1.sefaz.nfseConsult', { ...target, chaveAcesso: nfse.chaveAcesso }), { kind: 'canceled', chaveAcesso: nfse.chaveAcesso });
});
