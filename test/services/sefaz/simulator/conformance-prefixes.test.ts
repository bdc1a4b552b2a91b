import test from 'ava';
import { cstatText } from '../../../../lib/sefaz/cstat.js';
import { buildConsReciNFe, buildEnviNFe } from '../../../../lib/sefaz/messages.js';
import { NFE_NS, type SefazService } from '../../../../lib/sefaz/services.js';
import {
  aNote, consSit, consStat, enviNFe, envelope12, envEvento, inutNFe, lastTag, resultOf, startConformanceSim, tag, type ConformanceSim,
} from '../../../support/simulator-conformance.js';
import type { NFE_SCHEMAS } from '../../../../lib/xml/schemas.js';

/**
 * Issue 19: every service reads its message namespace-aware and applies the same prefix rule (404,
 * MOC 4.00 §4.2), not only NFeAutorizacao4. A prefix on the SOAP wrapper (`nfe:nfeDadosMsg`) is
 * not the data area and stays allowed (conformance-transport.test.ts).
 */
let c: ConformanceSim;
test.before(async () => { c = await startConformanceSim(); });
test.after.always(async () => { await c?.stop(); });

const HOST = { host: 'homologacao.nfe.fazenda.sp.gov.br' };
const PATHS: Record<SefazService, string> = {
  NFeAutorizacao4: '/ws/nfeautorizacao4.asmx',
  NFeRetAutorizacao4: '/ws/nferetautorizacao4.asmx',
  NFeConsultaProtocolo4: '/ws/nfeconsultaprotocolo4.asmx',
  NFeStatusServico4: '/ws/nfestatusservico4.asmx',
  NFeRecepcaoEvento4: '/ws/nferecepcaoevento4.asmx',
  NFeInutilizacao4: '/ws/nfeinutilizacao4.asmx',
};

/** Every element of the message written as `nfe:<name>`, the NF-e namespace bound to that prefix. */
const prefixed = (xml: string) => xml.replace(/<(\/?)([A-Za-z])/g, '<$1nfe:$2').replaceAll(`xmlns="${NFE_NS}"`, `xmlns:nfe="${NFE_NS}"`);

async function send(service: SefazService, payload: string, schema: keyof typeof NFE_SCHEMAS) {
  return resultOf(await c.post(PATHS[service], envelope12(service, payload), HOST), schema);
}

test('404 on every service for a prefixed data area, in the service\'s ret* valid against the XSD', async (t) => {
  const note = aNote(c);
  const messages: [SefazService, string, keyof typeof NFE_SCHEMAS][] = [
    ['NFeStatusServico4', consStat('35'), 'retConsStatServ'],
    ['NFeConsultaProtocolo4', consSit(note.accessKey), 'retConsSitNFe'],
    ['NFeRetAutorizacao4', buildConsReciNFe({ ambiente: 2, receipt: '351000000000001' }), 'retConsReciNFe'],
    ['NFeAutorizacao4', enviNFe(note.xml), 'retEnviNFe'],
    ['NFeRecepcaoEvento4', await envEvento(c, { accessKey: note.accessKey, detail: { type: 'cce', correcao: 'Corrigir o endereco do destinatario' } }), 'retEnvEvento'],
    ['NFeInutilizacao4', await inutNFe(c, { serie: 9, inicio: 1, fim: 2 }), 'retInutNFe'],
  ];
  for (const [service, payload, schema] of messages) {
    const plain = await send(service, payload, schema);
    t.not(tag(plain.xml, 'cStat'), '404', `${service} without prefixes`);
    const r = await send(service, prefixed(payload), schema);
    t.deepEqual(r.xsd, { valid: true, errors: [] }, service);
    t.is(tag(r.xml, 'cStat'), '404', service);
    t.is(tag(r.xml, 'xMotivo'), cstatText(404), service);
  }
});

test('the receipt service reads nRec and tpAmb namespace-aware: 104 for its batch, 252 in production, 106 unknown', async (t) => {
  const note = aNote(c);
  const sent = await send('NFeAutorizacao4', buildEnviNFe({ idLote: '2', signedNfeXml: note.xml, sync: false }), 'retEnviNFe');
  t.is(tag(sent.xml, 'cStat'), '103', sent.xml);
  const nRec = tag(sent.xml, 'nRec')!;
  const ok = await send('NFeRetAutorizacao4', buildConsReciNFe({ ambiente: 2, receipt: nRec }), 'retConsReciNFe');
  t.deepEqual(ok.xsd, { valid: true, errors: [] });
  t.is(tag(ok.xml, 'cStat'), '104');
  t.is(tag(ok.xml, 'nRec'), nRec);
  t.is(lastTag(ok.xml, 'cStat'), '100');
  const production = await send('NFeRetAutorizacao4', buildConsReciNFe({ ambiente: 1, receipt: nRec }), 'retConsReciNFe');
  t.is(tag(production.xml, 'cStat'), '252');
  t.is(tag(production.xml, 'xMotivo'), cstatText(252));
  const unknown = await send('NFeRetAutorizacao4', buildConsReciNFe({ ambiente: 2, receipt: '351000000099999' }), 'retConsReciNFe');
  t.is(tag(unknown.xml, 'cStat'), '106');
  t.is(tag(unknown.xml, 'xMotivo'), cstatText(106));
});
