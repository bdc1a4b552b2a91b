import test from 'ava';
import type { ExecutionContext } from 'ava';
import { withCnpjCheckDigits } from '../../../../lib/issuer/documents.js';
import { createA1, createCa } from '../../../support/certificates.js';
import type { SampleOptions } from '../../../support/sample-nfe.js';
import {
  aNote, CNPJ, enviNFe, envelope12, lastTag, resultOf, startConformanceSim, tag, type ConformanceSim,
} from '../../../support/simulator-conformance.js';
import type { A1 } from '../../../support/certificates.js';

/**
 * Issue 19, the rejections of a note: one test per code, each sent as a raw enviNFe over mTLS to
 * SP's own path, asserting cStat, the authority's verbatim xMotivo and the retEnviNFe valid
 * against the official XSD.
 */
let c: ConformanceSim;
test.before(async () => { c = await startConformanceSim(); });
test.after.always(async () => { await c?.stop(); });

const SP = { path: '/ws/nfeautorizacao4.asmx', host: 'homologacao.nfe.fazenda.sp.gov.br' };
const HOUR = 3_600_000;

async function send(o: Partial<SampleOptions> = {}, signer?: A1, target = SP) {
  const note = aNote(c, o, signer);
  const r = resultOf(await c.post(target.path, envelope12('NFeAutorizacao4', enviNFe(note.xml)), { host: target.host }), 'retEnviNFe');
  return { ...r, note };
}

async function rejects(t: ExecutionContext, cStat: string, xMotivo: string, o: Partial<SampleOptions> = {}, signer?: A1, target = SP) {
  const r = await send(o, signer, target);
  t.deepEqual(r.xsd, { valid: true, errors: [] });
  t.is(tag(r.xml, 'cStat'), '104', 'the batch is processed');
  t.is(lastTag(r.xml, 'cStat'), cStat);
  t.is(lastTag(r.xml, 'xMotivo'), xMotivo);
  t.is(lastTag(r.xml, 'nProt'), null, 'a rejection has no protocol');
}

const edit = (from: string | RegExp, to: string) => (nfe: string) => {
  const out = nfe.replace(from, to);
  if (out === nfe) throw new Error(`edit did not apply: ${from}`);
  return out;
};

test('100: a valid note is authorized', async (t) => {
  const r = await send();
  t.deepEqual(r.xsd, { valid: true, errors: [] });
  t.is(lastTag(r.xml, 'cStat'), '100');
  t.is(lastTag(r.xml, 'xMotivo'), 'Autorizado o uso da NF-e');
});

test('213: the signing certificate belongs to another CNPJ-base (whoever transmits)', async (t) => {
  const other = createA1(c.ca, { cnpj: withCnpjCheckDigits('998877660001') });
  await rejects(t, '213', 'Rejeição: CNPJ-Base do Emitente difere do CNPJ-Base do Certificado Digital', {}, other);
});

test('295: a signing certificate not issued by the trusted chain (ICP-Brasil)', async (t) => {
  await rejects(t, '295', 'Rejeição: Certificado Assinatura difere ICP-Brasil', {}, createA1(createCa('AC Estranha'), { cnpj: CNPJ }));
});

test('293: a signing certificate that names a trusted CA that did not sign it', async (t) => {
  // Same subject as the trusted CA (createCa's default name), another key.
  await rejects(t, '293', 'Rejeição: Certificado Assinatura - erro Cadeia de Certificação', {}, createA1(createCa(), { cnpj: CNPJ }));
});

test('291: an expired signing certificate', async (t) => {
  const expired = createA1(c.ca, { cnpj: CNPJ, notBefore: new Date(Date.now() - 400 * 24 * HOUR), notAfter: new Date(Date.now() - 24 * HOUR) });
  await rejects(t, '291', 'Rejeição: Certificado Assinatura Data Validade', {}, expired);
});

test('292: a signing certificate without a CNPJ', async (t) => {
  await rejects(t, '292', 'Rejeição: Certificado Assinatura sem CNPJ', {}, createA1(c.ca, { cnpj: '', cnOnly: true }));
});

test('290: a Signature whose X509Certificate is not a certificate', async (t) => {
  const note = aNote(c);
  const broken = note.xml.replace(/<X509Certificate>[^<]+<\/X509Certificate>/, '<X509Certificate>QUJD</X509Certificate>');
  const r = resultOf(await c.post(SP.path, envelope12('NFeAutorizacao4', enviNFe(broken)), { host: SP.host }), 'retEnviNFe');
  t.deepEqual(r.xsd, { valid: true, errors: [] });
  t.is(lastTag(r.xml, 'cStat'), '290');
  t.is(lastTag(r.xml, 'xMotivo'), 'Rejeição: Certificado Assinatura inválido');
});

test('297: a note changed after signing', async (t) => {
  await rejects(t, '297', 'Rejeição: Assinatura difere do calculado', { tamperAfterSigning: true });
});

test('252: a production note (tpAmb 1) sent to homologation', async (t) => {
  await rejects(t, '252', 'Rejeição: Ambiente informado diverge do Ambiente de recebimento', { tpAmb: 1 });
});

test('226: an SP note sent to SVRS\'s own address', async (t) => {
  await rejects(t, '226', 'Rejeição: Código da UF do Emitente diverge da UF autorizadora', {}, undefined,
    { path: '/ws/NfeAutorizacao/NFeAutorizacao4.asmx', host: 'nfe-homologacao.svrs.rs.gov.br' });
});

test('502: a key whose check digit does not match the fields', async (t) => {
  await rejects(t, '502', 'Rejeição: Erro na Chave de Acesso - Campo Id não corresponde à concatenação dos campos correspondentes', { wrongCheckDigit: true });
});

test('703: dhEmi more than 5 minutes ahead of the reception', async (t) => {
  await rejects(t, '703', 'Rejeição: Data-Hora de Emissão posterior ao horário de recebimento', { at: new Date(c.clock.now.getTime() + 10 * 60_000) });
});

test('228: a normal emission older than 30 days', async (t) => {
  await rejects(t, '228', 'Rejeição: Data de Emissão muito atrasada', { at: new Date(c.clock.now.getTime() - 31 * 24 * HOUR) });
});

test('704: an NFC-e in normal emission older than 5 minutes', async (t) => {
  await rejects(t, '704', 'Rejeição: NFC-e com Data-Hora de emissão atrasada', { model: '65', at: new Date(c.clock.now.getTime() - 10 * 60_000) });
});

test('150: an offline-contingency NFC-e received more than 24 h after emission is authorized late', async (t) => {
  const r = await send({ model: '65', tpEmis: 9, at: new Date(c.clock.now.getTime() - 25 * HOUR) });
  t.deepEqual(r.xsd, { valid: true, errors: [] });
  t.is(lastTag(r.xml, 'cStat'), '150');
  t.is(lastTag(r.xml, 'xMotivo'), 'Autorizado o uso da NF-e, autorização fora de prazo');
  t.regex(lastTag(r.xml, 'nProt')!, /^135\d{12}$/);
});

test('225: a batch that fails the schema answers the table text only', async (t) => {
  const r = await send({ breakSchema: true });
  t.deepEqual(r.xsd, { valid: true, errors: [] });
  t.is(tag(r.xml, 'cStat'), '225');
  t.is(tag(r.xml, 'xMotivo'), 'Rejeição: Falha no Schema XML do lote de NFe');
  const inspected = await (await fetch(`${c.sim.adminUrl}/__admin/rejeicoes?limit=1`)).json() as { rejeicoes: { cStat: number; details: string[] }[] };
  t.is(inspected.rejeicoes[0]!.cStat, 225);
  t.regex(inspected.rejeicoes[0]!.details.join(' '), /natOp|Element/);
});

test('972: a note without infRespTec', async (t) => {
  await rejects(t, '972', 'Rejeição: Obrigatória as informações do responsável técnico', { withoutInfRespTec: true });
});

test('696: a non-contributor recipient without indFinal 1', async (t) => {
  await rejects(t, '696', 'Rejeição: Operacao com nao contribuinte deve indicar operacao com consumidor final', { nonContributorNotFinal: true });
});

test('209: an emitter IE with a wrong check digit for its UF', async (t) => {
  await rejects(t, '209', 'Rejeição: IE do emitente inválida', { edit: edit('<IE>526082602118</IE>', '<IE>526082602119</IE>') });
});

test('208: a recipient CNPJ with a wrong check digit', async (t) => {
  await rejects(t, '208', 'Rejeição: CNPJ do destinatário inválido', { edit: edit('<dest><CNPJ>56558703000275</CNPJ>', '<dest><CNPJ>56558703000276</CNPJ>') });
});

test('237: a recipient CPF with a wrong check digit', async (t) => {
  await rejects(t, '237', 'Rejeição: CPF do destinatário inválido', { edit: edit('<dest><CNPJ>56558703000275</CNPJ>', '<dest><CPF>52998224726</CPF>') });
});

test('210: a recipient IE with a wrong check digit for its UF', async (t) => {
  await rejects(t, '210', 'Rejeição: IE do destinatário inválida', { edit: edit('<IE>587124379116</IE>', '<IE>587124379117</IE>') });
});

test('272: an emitter municipality code that does not exist', async (t) => {
  await rejects(t, '272', 'Rejeição: Código Município do Emitente: dígito inválido', { edit: edit('<cMun>3537800</cMun><xMun>PIEDADE</xMun>', '<cMun>3537801</cMun><xMun>PIEDADE</xMun>') });
});

test('273: an emitter municipality of another UF', async (t) => {
  await rejects(t, '273', 'Rejeição: Código Município do Emitente: difere da UF do emitente', { edit: edit('<cMun>3537800</cMun><xMun>PIEDADE</xMun>', '<cMun>3106200</cMun><xMun>PIEDADE</xMun>') });
});

test('270: a cMunFG that does not exist', async (t) => {
  await rejects(t, '270', 'Rejeição: Código Município do Fato Gerador: dígito inválido', { edit: edit('<cMunFG>3537800</cMunFG>', '<cMunFG>3537801</cMunFG>') });
});

test('271: a cMunFG of another UF', async (t) => {
  await rejects(t, '271', 'Rejeição: Código Município do Fato Gerador: difere da UF do emitente', { edit: edit('<cMunFG>3537800</cMunFG>', '<cMunFG>3106200</cMunFG>') });
});

test('274: a recipient municipality code that does not exist', async (t) => {
  await rejects(t, '274', 'Rejeição: Código Município do Destinatário: dígito inválido', { edit: edit('<cMun>3543907</cMun>', '<cMun>3543908</cMun>') });
});

test('275: a recipient municipality of another UF', async (t) => {
  await rejects(t, '275', 'Rejeição: Código Município do Destinatário: difere da UF do Destinatário', { edit: edit('<cMun>3543907</cMun>', '<cMun>3106200</cMun>') });
});

test('694: an interstate sale to a non-contributor final consumer without ICMSUFDest names the item', async (t) => {
  const interstate = (nfe: string) => edit('<idDest>1</idDest>', '<idDest>2</idDest>')(
    edit('<cMun>3543907</cMun><xMun>RIO CLARO</xMun><UF>SP</UF>', '<cMun>3106200</cMun><xMun>BELO HORIZONTE</xMun><UF>MG</UF>')(
      edit(/<indIEDest>1<\/indIEDest><IE>\d+<\/IE>/, '<indIEDest>9</indIEDest>')(nfe)));
  await rejects(t, '694', 'Rejeição: Não informado o grupo de ICMS para a UF de destino [nItem:1]', { edit: interstate });
});

test('695: ICMSUFDest on an internal sale to a contributor is refused, naming the item', async (t) => {
  const group = '<ICMSUFDest><vBCUFDest>100.00</vBCUFDest><pFCPUFDest>0.00</pFCPUFDest><pICMSUFDest>18.00</pICMSUFDest><pICMSInter>12.00</pICMSInter>'
    + '<pICMSInterPart>100.00</pICMSInterPart><vFCPUFDest>0.00</vFCPUFDest><vICMSUFDest>6.00</vICMSUFDest><vICMSUFRemet>0.00</vICMSUFRemet></ICMSUFDest>';
  await rejects(t, '695', 'Rejeição: Informado indevidamente o grupo de ICMS para a UF de destino [nItem:1]', { edit: edit('</COFINS>', `</COFINS>${group}`) });
});

/** The sample made an interstate sale SP → MG to a non-contributor consumer, with its partilha (12%, R$ 6,00 to MG). */
const partilha = (o: { pICMSInter?: string; pICMSInterPart?: string; orig?: string; totalUfDest?: string } = {}) => (nfe: string) => {
  const group = '<ICMSUFDest><vBCUFDest>100.00</vBCUFDest><pFCPUFDest>0.00</pFCPUFDest><pICMSUFDest>18.00</pICMSUFDest>'
    + `<pICMSInter>${o.pICMSInter ?? '12.00'}</pICMSInter><pICMSInterPart>${o.pICMSInterPart ?? '100.00'}</pICMSInterPart>`
    + '<vFCPUFDest>0.00</vFCPUFDest><vICMSUFDest>6.00</vICMSUFDest><vICMSUFRemet>0.00</vICMSUFRemet></ICMSUFDest>';
  const steps = [
    edit('<idDest>1</idDest>', '<idDest>2</idDest>'),
    edit('<cMun>3543907</cMun><xMun>RIO CLARO</xMun><UF>SP</UF>', '<cMun>3106200</cMun><xMun>BELO HORIZONTE</xMun><UF>MG</UF>'),
    edit(/<indIEDest>1<\/indIEDest><IE>\d+<\/IE>/, '<indIEDest>9</indIEDest>'),
    edit('</COFINS>', `</COFINS>${group}`),
    edit('<vICMSUFDest>0.00</vICMSUFDest><vICMSUFRemet>', `<vICMSUFDest>${o.totalUfDest ?? '6.00'}</vICMSUFDest><vICMSUFRemet>`),
    ...(o.orig ? [edit('<orig>0</orig>', `<orig>${o.orig}</orig>`)] : []),
  ];
  return steps.reduce((x, step) => step(x), nfe);
};

test('100: the interstate sale to a consumer with a coherent partilha is authorized', async (t) => {
  const r = await send({ edit: partilha() });
  t.deepEqual(r.xsd, { valid: true, errors: [] });
  t.is(lastTag(r.xml, 'cStat'), '100');
});

test('697: pICMSInter 4% on a national item, and 12% on an imported one (NT 2015.003 NA09-10/NA09-20)', async (t) => {
  const text = 'Rejeição: Alíquota interestadual do ICMS com origem diferente do previsto [nItem:1]';
  await rejects(t, '697', text, { edit: partilha({ pICMSInter: '4.00' }) });
  await rejects(t, '697', text, { edit: partilha({ orig: '1' }) });
});

test('698: pICMSInter 7% from SP to MG, where the UFs make it 12% (NT 2015.003 NA09-30)', async (t) => {
  await rejects(t, '698', 'Rejeição: Alíquota interestadual do ICMS incompatível com as UF envolvidas na operação [nItem:1]', { edit: partilha({ pICMSInter: '7.00' }) });
});

test('699: pICMSInterPart 80% (2018\'s share) on a note of this year (NT 2015.003 NA11-10)', async (t) => {
  await rejects(t, '699', 'Rejeição: Percentual do ICMS Interestadual para a UF de destino difere do previsto para o ano da Data de Emissão [nItem:1]',
    { edit: partilha({ pICMSInterPart: '80.00' }) });
});

test('799: ICMSTot/vICMSUFDest that is not the sum of the items (NT 2015.003 W04e-10)', async (t) => {
  await rejects(t, '799', 'Rejeição: Valor total do ICMS Interestadual da UF de destino difere do somatório dos itens', { edit: partilha({ totalUfDest: '6.01' }) });
});

test('rejection on demand: SIMULAR_REJEICAO:<cStat> in infCpl answers that rejection verbatim, after the real rules', async (t) => {
  const ask = (code: string) => edit('<infCpl>', `<infCpl>SIMULAR_REJEICAO:${code} `);
  await rejects(t, '778', 'Rejeição: Informado NCM inexistente', { edit: ask('778') });
  // A real rule still wins, and a code the table does not have is ignored.
  await rejects(t, '972', 'Rejeição: Obrigatória as informações do responsável técnico', { edit: ask('778'), withoutInfRespTec: true });
  const r = await send({ edit: ask('123') });
  t.is(lastTag(r.xml, 'cStat'), '100');
});

test('204 and 539 keep their texts with the first receipt and key filled in', async (t) => {
  const first = aNote(c, { numero: 4242 } as Partial<SampleOptions>);
  const post = (xml: string) => c.post(SP.path, envelope12('NFeAutorizacao4', enviNFe(xml)), { host: SP.host }).then((a) => resultOf(a, 'retEnviNFe'));
  t.is(lastTag((await post(first.xml)).xml, 'cStat'), '100');
  const again = await post(first.xml);
  t.deepEqual(again.xsd, { valid: true, errors: [] });
  t.is(lastTag(again.xml, 'cStat'), '204');
  t.regex(lastTag(again.xml, 'xMotivo')!, /^Rejeição: Duplicidade de NF-e \[nRec:\d{15}\]$/);
  const sameNumber = aNote(c, { numero: 4242, cNF: '87654321' } as Partial<SampleOptions>);
  const dup = await post(sameNumber.xml);
  t.is(lastTag(dup.xml, 'cStat'), '539');
  t.regex(lastTag(dup.xml, 'xMotivo')!, new RegExp(`^Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso \\[chNFe:${first.accessKey}\\]\\[nRec:\\d{15}\\]$`));
});
