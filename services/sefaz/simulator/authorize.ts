import { NFE_SCHEMAS } from '../../../lib/xml/schemas.js';
import { cstatText } from '../../../lib/sefaz/cstat.js';
import { brasiliaDateTime } from '../../../lib/sefaz/xml.js';
import { nfeFactsList, type NfeFacts } from '../../../lib/sefaz/simulator/facts.js';
import { authorizationCStat, checkNote, duplicateMotivo, withItem } from '../../../lib/sefaz/simulator/rules.js';
import { motivo, SIMULATOR_TP_AMB } from '../../../lib/sefaz/simulator/codes.js';
import { servesUf } from '../../../lib/sefaz/simulator/paths.js';
import { messageFields, parseMessage, usesNamespacePrefix } from '../../../lib/sefaz/simulator/message.js';
import type { XmlDocument } from 'libxml2-wasm';
import { svcOf } from '../../../lib/sefaz/simulator/contingency.js';
import { ufRules } from '../../../lib/sefaz/simulator/uf-rules.js';
import { requestedRejection } from '../../../lib/sefaz/simulator/trigger.js';
import * as R from '../../../lib/sefaz/simulator/responses.js';
import { authorizerOf, schemaValid, siglaOf, tableText, type HandlerDeps, type NfeHandler, type RequestInfo } from './handler-context.js';

/**
 * NFeAutorizacao4 and NFeRetAutorizacao4: the batch (prefixes 404, schema 225), then each note by
 * the rules of lib/sefaz/simulator/rules.ts in the authority's order, then the database (206, 204,
 * 539) under the series lock. Texts verbatim from data/sefaz/cstat.json.
 */

export function authorizationHandlers(d: HandlerDeps): { NFeAutorizacao4: NfeHandler; NFeRetAutorizacao4: NfeHandler } {
  const { store } = d;

  async function authorizeOne(payload: XmlDocument, f: NfeFacts, req: RequestInfo, receipt: string, sequence: bigint): Promise<string> {
    const chNFe = f.id.slice(3);
    const dhRecbto = brasiliaDateTime(req.now);
    const reject = (cStat: number, xMotivo: string) => R.protNFe({ cStat, xMotivo, tpAmb: SIMULATOR_TP_AMB, chNFe, dhRecbto });
    const sig = d.signatures.check(payload, f.id, req.now);
    if (sig.reason) d.rejections.record({ at: req.now.toISOString(), service: 'NFeAutorizacao4', cStat: sig.signatureCStat ?? sig.signerCStat ?? 0, id: chNFe, details: [sig.reason] });
    const rules = ufRules(siglaOf(f.cUF));
    const broken = checkNote({
      facts: f, ...sig, clientCnpj: req.clientCnpj, thirdPartyTransmitter: rules.thirdPartyTransmitter,
      infRespTecRequired: rules.infRespTecRequired, authorizerServesUf: servesUf(req.authorizers, f.cUF, req.model ?? (f.mod === '65' ? '65' : '55')), svc: svcOf(req.authorizers), now: req.now,
    });
    if (broken) return reject(broken.cStat, withItem(cstatText(broken.cStat), broken.nItem));
    const firstItem = [...f.itemsWithoutIcmsUfDest, ...f.itemsWithIcmsUfDest].sort((a, b) => Number(a) - Number(b))[0];
    const asked = requestedRejection(f.additionalInfo, f.tpAmb, tableText, { nRec: receipt, chNFe, nItem: firstItem });
    if (asked) return reject(asked.cStat, asked.xMotivo);
    const number = { cnpj: f.emitCnpj!, model: f.mod, serie: Number(f.serie), numero: Number(f.nNF), tp_amb: Number(f.tpAmb) };
    const protocol = R.protocolNumber(authorizerOf(req, f.cUF, f.mod), f.cUF, req.now, sequence);
    const prot = R.protNFe({ ...motivo(authorizationCStat(f, req.now)), tpAmb: SIMULATOR_TP_AMB, chNFe, dhRecbto, nProt: protocol, digVal: f.digestValue });
    // The inutilização check and the insert under the series lock (see SimulatorStore.serialized).
    const outcome = await store.serialized(number, (s) => s.insertNoteUnlessInutilizado({
      access_key: chNFe, ...number, c_uf: f.cUF, status: 'authorized', protocol, receipt, authorized_at: req.now, dh_emi: new Date(f.dhEmi), prot_xml: prot,
    }));
    if (outcome === 'inutilizado') return reject(206, cstatText(206));
    if (outcome === 'inserted') return prot;
    const sameKey = await store.noteByKey(chNFe);
    if (sameKey) { const m = duplicateMotivo({ kind: 'same-key', receipt: sameKey.receipt }, cstatText(204)); return reject(m.cStat, m.xMotivo); }
    const sameNumber = await store.noteByNumber(number);
    if (!sameNumber) throw new Error('unique violation without a matching note');
    const m = duplicateMotivo({ kind: 'same-number', accessKey: sameNumber.access_key, receipt: sameNumber.receipt }, cstatText(539));
    return reject(m.cStat, m.xMotivo);
  }

  const NFeAutorizacao4: NfeHandler = async (payload, req) => {
    // Parsed once for every check below (the hot path of the simulator: issue 18).
    const doc = parseMessage(payload);
    if (!doc) {
      // Not well-formed (the envelope's parser let it through only as text): a schema failure, recorded with libxml2's message.
      schemaValid(d, NFE_SCHEMAS.enviNFe, payload, 'NFeAutorizacao4', 225, req.now);
      return R.retEnviNFe({ tpAmb: SIMULATOR_TP_AMB, cUF: '91', dhRecbto: brasiliaDateTime(req.now) }, motivo(225));
    }
    try {
      const f = messageFields(doc, ['cUF', 'indSinc']);
      const head = { tpAmb: SIMULATOR_TP_AMB, cUF: f.cUF && /^\d{2}$/.test(f.cUF) ? f.cUF : '91', dhRecbto: brasiliaDateTime(req.now) };
      // 404: the authorities refuse namespace prefixes in the data area (MOC 4.00 §4.2).
      if (usesNamespacePrefix(doc)) return R.retEnviNFe(head, motivo(404));
      if (!schemaValid(d, NFE_SCHEMAS.enviNFe, doc, 'NFeAutorizacao4', 225, req.now)) return R.retEnviNFe(head, motivo(225));
      const notes = nfeFactsList(doc);
      // The receipt's number and one protocol number per note, in one round trip.
      const [receiptSeq, ...protocolSeqs] = await store.nextSequences(notes.length + 1);
      const receipt = R.receiptNumber(head.cUF, receiptSeq!);
      const prots: string[] = [];
      for (const [i, n] of notes.entries()) prots.push(await authorizeOne(doc, n, req, receipt, protocolSeqs[i]!));
      if (f.indSinc === '1') return R.retEnviNFe(head, motivo(104), { prot: prots.join('') });
      await store.saveReceipt({ receipt, c_uf: head.cUF, tp_amb: Number(SIMULATOR_TP_AMB), prot_xml: prots.join(''), created_at: req.now });
      return R.retEnviNFe(head, motivo(103), { receipt });
    } finally {
      doc.dispose();
    }
  };

  const NFeRetAutorizacao4: NfeHandler = async (payload, req) => {
    const f = messageFields(payload, ['tpAmb', 'nRec']);
    const nRec = f.nRec && /^\d{15}$/.test(f.nRec) ? f.nRec : '0'.repeat(15);
    const head = { tpAmb: SIMULATOR_TP_AMB, cUF: nRec.slice(0, 2), dhRecbto: brasiliaDateTime(req.now), nRec };
    if (usesNamespacePrefix(payload)) return R.retConsReciNFe(head, motivo(404));
    if (!schemaValid(d, NFE_SCHEMAS.consReciNFe, payload, 'NFeRetAutorizacao4', 215, req.now)) return R.retConsReciNFe(head, motivo(215));
    if (f.tpAmb !== SIMULATOR_TP_AMB) return R.retConsReciNFe(head, motivo(252));
    const row = await store.receipt(nRec);
    if (!row) return R.retConsReciNFe(head, motivo(106));
    return R.retConsReciNFe({ ...head, cUF: row.c_uf }, motivo(104), row.prot_xml);
  };

  return { NFeAutorizacao4, NFeRetAutorizacao4 };
}
