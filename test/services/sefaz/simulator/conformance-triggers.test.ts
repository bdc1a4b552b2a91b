import test from 'ava';
import { buildConsReciNFe, buildEnviNFe } from '../../../../lib/sefaz/messages.js';
import {
  aNote, envelope12, envEvento, inutNFe, lastTag, resultOf, startConformanceSim, tag, type ConformanceSim,
} from '../../../support/simulator-conformance.js';

/**
 * Issue 19, rejections on demand whose table text names an earlier record: the simulator fills
 * `[nRec:…]` and `[chNFe:…]` from the request (never the table's 999…), and ignores the trigger
 * where nothing can fill them (an inutilização has no receipt).
 */
let c: ConformanceSim;
test.before(async () => { c = await startConformanceSim(); });
test.after.always(async () => { await c?.stop(); });

const HOST = { host: 'homologacao.nfe.fazenda.sp.gov.br' };
const asking = (code: number) => (nfe: string) => nfe.replace(/<infCpl>[^<]*<\/infCpl>/, `<infCpl>Teste SIMULAR_REJEICAO:${code}</infCpl>`);

/** An asynchronous batch (its nRec is what the texts name) and the protNFe its receipt answers. */
async function viaReceipt(code?: number) {
  const note = aNote(c, code ? { edit: asking(code) } : {});
  const sent = resultOf(await c.post('/ws/nfeautorizacao4.asmx', envelope12('NFeAutorizacao4', buildEnviNFe({ idLote: '3', signedNfeXml: note.xml, sync: false })), HOST), 'retEnviNFe');
  const nRec = tag(sent.xml, 'nRec')!;
  const r = resultOf(await c.post('/ws/nferetautorizacao4.asmx', envelope12('NFeRetAutorizacao4', buildConsReciNFe({ ambiente: 2, receipt: nRec })), HOST), 'retConsReciNFe');
  return { ...r, nRec, note };
}

test('a note asking for 204 or 539 gets the text with its own receipt (and key), not the table\'s 999…', async (t) => {
  const d204 = await viaReceipt(204);
  t.deepEqual(d204.xsd, { valid: true, errors: [] });
  t.is(lastTag(d204.xml, 'cStat'), '204');
  t.is(lastTag(d204.xml, 'xMotivo'), `Rejeição: Duplicidade de NF-e [nRec:${d204.nRec}]`);
  const d539 = await viaReceipt(539);
  t.is(lastTag(d539.xml, 'cStat'), '539');
  t.is(lastTag(d539.xml, 'xMotivo'), `Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso [chNFe:${d539.note.accessKey}][nRec:${d539.nRec}]`);
});

test('a cancellation asking for 218 names the receipt of the note', async (t) => {
  const ok = await viaReceipt();
  t.is(lastTag(ok.xml, 'cStat'), '100');
  const cancel = await envEvento(c, { accessKey: ok.note.accessKey, detail: { type: 'cancelamento', protocol: lastTag(ok.xml, 'nProt')!, justificativa: 'Teste SIMULAR_REJEICAO:218' } });
  const r = resultOf(await c.post('/ws/nferecepcaoevento4.asmx', envelope12('NFeRecepcaoEvento4', cancel), HOST), 'retEnvEvento');
  t.deepEqual(r.xsd, { valid: true, errors: [] });
  t.is(lastTag(r.xml, 'cStat'), '218');
  t.is(lastTag(r.xml, 'xMotivo'), `Rejeição: NF-e já está cancelada na base de dados da SEFAZ [nRec:${ok.nRec}]`);
});

test('an inutilização asking for 204 is processed as usual: it has no receipt to name', async (t) => {
  const r = resultOf(await c.post('/ws/nfeinutilizacao4.asmx', envelope12('NFeInutilizacao4', await inutNFe(c, { serie: 7, inicio: 10, fim: 11, justificativa: 'Teste SIMULAR_REJEICAO:204' })), HOST), 'retInutNFe');
  t.deepEqual(r.xsd, { valid: true, errors: [] });
  t.is(tag(r.xml, 'cStat'), '102');
  t.is(tag(r.xml, 'xMotivo'), 'Inutilização de número homologado');
});
